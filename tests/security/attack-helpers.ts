/**
 * Shared pieces of the attack suite (tests/security/attacks.test.ts): the figures it measures, a fake
 * reCAPTCHA Enterprise assessment API on loopback, and server processes started as `npm start` would.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface Figure {
  finding: number;
  what: string;
  before: string;
  after: string;
}

/** Figures in the order measured; the suite prints them and checks that docs/security.md quotes them. */
export const figures: Figure[] = [];

export function figure(finding: number, what: string, before: string, after: string | number): void {
  figures.push({ finding, what, before, after: String(after) });
}

export function figuresTable(rows: readonly Figure[]): string {
  const sorted = [...rows].sort((a, b) => a.finding - b.finding);
  return ['| # | measured | before | after |', '|---|---|---|---|', ...sorted.map((f) => `| ${f.finding} | ${f.what} | ${f.before} | ${f.after} |`)].join('\n');
}

/**
 * A stand-in for recaptchaenterprise.googleapis.com on loopback: projects.assessments.create answers
 * from a table of known tokens (valid, action, score); anything else is an invalid token.
 */
export async function fakeRecaptcha(
  tokens: Record<string, { action: string; score: number }>,
): Promise<{ url: string; calls: unknown[]; close(): Promise<void> }> {
  const calls: unknown[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      const parsed = JSON.parse(body || '{}') as { event?: { token?: string; expectedAction?: string; siteKey?: string } };
      calls.push({ url: req.url, ...parsed });
      const known = tokens[parsed.event?.token ?? ''];
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify(
          known
            ? {
                tokenProperties: { valid: true, action: known.action, invalidReason: 'INVALID_REASON_UNSPECIFIED' },
                riskAnalysis: { score: known.score, reasons: [] },
              }
            : { tokenProperties: { valid: false, invalidReason: 'MALFORMED' }, riskAnalysis: { score: 0, reasons: [] } },
        ),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, calls, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface ServerProcess {
  child: ChildProcess;
  output(): string;
  /** Resolves with the exit code (the process ended by itself). */
  exited: Promise<number | null>;
  stop(): Promise<void>;
}

/** `tsx server/main.ts` with this environment (nothing inherited but PATH and HOME). */
export function startServer(env: Record<string, string>, args: string[] = []): ServerProcess {
  const child = spawn(process.execPath, [path.join(ROOT, 'node_modules/tsx/dist/cli.mjs'), 'server/main.ts', ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d) => {
    out += String(d);
  });
  child.stderr?.on('data', (d) => {
    out += String(d);
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    child,
    output: () => out,
    exited,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
    },
  };
}

/** Polls /healthz until it answers 200 (or the process ends, or the time runs out). */
export async function healthy(base: string, proc: ServerProcess, timeoutMs = 30_000): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (proc.child.exitCode !== null) return false;
    try {
      if ((await fetch(`${base}/healthz`)).ok) return true;
    } catch {
      /* not listening yet */
    }
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  return false;
}
