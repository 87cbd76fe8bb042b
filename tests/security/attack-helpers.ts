/**
 * Shared pieces of the attack suites (tests/security/issue-15/, issue-24/): the figures they measure
 * and the check that docs/security.md quotes them, clients with their own cookies and address, a
 * fake reCAPTCHA Enterprise assessment API on loopback, and server processes started as `npm start`
 * would. The software security key is tests/server/soft-passkey.ts.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { listeningPort } from '../../scripts/server-output';
import type { SqlValue } from '../../server/db/data';
import { count as countRows } from '../server/helpers';

export { DEMO_TOTP_SECRET, outbox, totp } from '../server/demo-helpers';

export type Json = Record<string, unknown>;
/** An answer's JSON body. */
export const body = (res: { json(): unknown }) => res.json() as Json;
/** The last path segment of a link, decoded (the code or key an emailed link carries). */
export const lastPart = (link: string | undefined) => decodeURIComponent((link ?? '').split('/').pop() ?? '');
/** A count from the app's database: `sql` selects one row with a column n. */
export const count = (app: FastifyInstance, sql: string, ...params: SqlValue[]) => countRows(app, sql, params);

let nextHost = 1;
/** A new source address each call: the attackers of the findings had many. */
export const someAddress = () => `198.51.${Math.floor(nextHost / 250) % 250}.${(nextHost++ % 250) + 1}`;
/** someAddress() as inject options. */
export const anyAddress = () => ({ remoteAddress: someAddress() });

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
 * Writes one suite's table to build/security-figures/<suite>.md and joins every suite's table into
 * build/security-figures.md (the suites run in parallel workers: each writes its own part).
 */
export function writeFigures(suite: string, title: string, rows: readonly Figure[]): void {
  const table = figuresTable(rows);
  console.log(`\n${title}\n${table}\n`);
  fs.mkdirSync('build/security-figures', { recursive: true });
  fs.writeFileSync(`build/security-figures/${suite}.md`, `## ${title}\n\n${table}\n`);
  const parts = fs
    .readdirSync('build/security-figures')
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => fs.readFileSync(`build/security-figures/${f}`, 'utf8'));
  fs.writeFileSync('build/security-figures.md', parts.join('\n'));
}

const untimed = (text: string) => text.replace(/ \(\d+ ms\)/, '');

/**
 * The last lines of an attack suite: writes the figures its tests measured once they have run, and
 * a last test that fails when docs/security.md does not quote one of them (timings aside), so the
 * document cannot drift from the code.
 */
export function reportFigures(suite: string, title: string): void {
  afterAll(() => writeFigures(suite, title, figures));
  describe('figures', () => {
    it('docs/security.md quotes the figures the suite measured (timings aside)', () => {
      expect(figures.length).toBeGreaterThan(0);
      const doc = fs.readFileSync('docs/security.md', 'utf8');
      const missing = figures
        .filter((f) => !/ms$/.test(f.after))
        .map((f) => `| ${f.finding} | ${untimed(f.what)} | ${f.before} | ${untimed(f.after)} |`)
        .filter((row) => !doc.includes(row));
      expect(missing, `rows to copy into docs/security.md:\n${missing.join('\n')}`).toEqual([]);
    });
  });
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

/**
 * `node --import tsx server/main.ts` with this environment (nothing inherited but PATH and HOME): ONE
 * process (tsx's own command starts the server in a child process, which a SIGKILL of the parent would
 * leave running). stop() asks with SIGTERM, and kills after 15 s.
 */
export function startServer(env: Record<string, string>, args: string[] = []): ServerProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts', ...args], {
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
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** The base URL a started server says it listens on (`frontdoor: http://localhost:PORT`, PORT=0 lets the system pick), or undefined. */
export async function listeningOn(proc: ServerProcess, timeoutMs = 60_000): Promise<string | undefined> {
  const until = Date.now() + timeoutMs;
  const port = () => listeningPort(proc.output());
  while (!port() && Date.now() < until && proc.child.exitCode === null) await new Promise((resolve) => setTimeout(resolve, 100));
  return port() ? `http://127.0.0.1:${port()}` : undefined;
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

/**
 * The base URL of a server started with PORT=0 (the system picks a free port: suites running side by
 * side never collide), read from its start-up line; undefined when the line does not come in time.
 */
export async function listeningAt(proc: ServerProcess, timeoutMs = 90_000): Promise<string | undefined> {
  const port = () => listeningPort(proc.output());
  const until = Date.now() + timeoutMs;
  while (!port() && Date.now() < until && proc.child.exitCode === null) await new Promise((resolve) => setTimeout(resolve, 100));
  const found = port();
  return found ? `http://127.0.0.1:${found}` : undefined;
}

/**
 * One browser (or script) talking to an app through inject: its own address and cookie jar (the
 * session, the browser-binding nonce), as a real client keeps them. Two of these are two clients.
 */
export interface Client {
  post(url: string, payload: unknown, extra?: Partial<InjectOptions>): Promise<LightMyRequestResponse>;
  get(url: string, extra?: Partial<InjectOptions>): Promise<LightMyRequestResponse>;
  send(options: InjectOptions): Promise<LightMyRequestResponse>;
  cookies: Map<string, string>;
}

export function client(app: FastifyInstance, remoteAddress = '127.0.0.1'): Client {
  const cookies = new Map<string, string>();
  const send = async (options: InjectOptions) => {
    const res = await app.inject({ remoteAddress, ...options, cookies: { ...Object.fromEntries(cookies), ...(options.cookies ?? {}) } });
    const raw = res.headers['set-cookie'];
    for (const c of Array.isArray(raw) ? raw : raw ? [raw] : []) {
      const pair = c.split(';')[0]!;
      const name = pair.slice(0, pair.indexOf('='));
      const value = pair.slice(pair.indexOf('=') + 1);
      if (value === '' || /max-age=0\b|expires=thu, 01 jan 1970/i.test(c)) cookies.delete(name);
      else cookies.set(name, value);
    }
    return res;
  };
  return {
    send,
    post: (url, payload, extra = {}) => send({ method: 'POST', url, payload: payload as InjectOptions['payload'], ...extra } as InjectOptions),
    get: (url, extra = {}) => send({ method: 'GET', url, ...extra } as InjectOptions),
    cookies,
  };
}
