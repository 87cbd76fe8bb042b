/**
 * Several real server processes on one database, for the multi-instance proofs of issue 25 (and the
 * "limits live where all instances see them" of issue 24): the database of the engine under test, the
 * instances (`tsx server/main.ts --demo`, each on its own ephemeral port), and browsers that talk to
 * any instance over HTTP with their own cookie jar and address.
 *
 * Engines: embedded SQLite (one WAL file) always; PostgreSQL when DATABASE_URL names a server
 * (`npm test` starts one), each test file on a database of its own. With FRONTDOOR_REQUIRE_POSTGRES=1
 * the PostgreSQL half fails without a server instead of being left out.
 *
 * The instances trust 127.0.0.1 as their proxy (TRUST_PROXY): each browser sends its own address in
 * X-Forwarded-For, as a load balancer would, so the per-address limits see separate visitors.
 */
import http from 'node:http';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import type { Challenge } from 'altcha-lib/types';
import { newPostgresDatabase, newSqliteDatabase, POSTGRES_REQUIRED, POSTGRES_URL, type TestDatabase } from '../server/db-engines';
import type { OutboxMessage } from '../../server/delivery/types';
import { healthy, listeningAt, startServer, type ServerProcess } from '../security/attack-helpers';

export type EngineName = 'sqlite' | 'postgres';

export interface ClusterEngine {
  name: EngineName;
  create(): Promise<TestDatabase>;
  /** The server's environment for this database. */
  env(db: TestDatabase): Record<string, string>;
}

const sqlite: ClusterEngine = { name: 'sqlite', create: newSqliteDatabase, env: (db) => ({ DB_PATH: db.location }) };
const postgres: ClusterEngine = {
  name: 'postgres',
  create: newPostgresDatabase,
  env: (db) => ({ DATABASE_URL: db.location, DATABASE_POOL_SIZE: '5' }),
};

export const CLUSTER_ENGINES: Record<EngineName, ClusterEngine> = { sqlite, postgres };

/** Whether this run covers the engine: SQLite always, PostgreSQL when DATABASE_URL is set or required (FRONTDOOR_REQUIRE_POSTGRES=1). */
export const engineInRun = (engine: ClusterEngine): boolean => engine.name === 'sqlite' || POSTGRES_URL !== undefined || POSTGRES_REQUIRED;

/** Something a browser can call: an instance, or a proxy in front of several. */
export interface Endpoint {
  name: string;
  /** http://127.0.0.1:<port> */
  url: string;
}

export interface Instance extends Endpoint {
  proc: ServerProcess;
}

/** Starting takes a few seconds, and much longer on a 2-core machine busy with other tests. */
export const START_TIMEOUT_MS = 150_000;

/** One server process on the database of `env`, in demo mode (the demo tenant, /dev tools), listening on an ephemeral port. */
export async function startInstance(name: string, env: Record<string, string>): Promise<Instance> {
  const proc = startServer({ PORT: '0', HOST: '127.0.0.1', TRUST_PROXY: '127.0.0.1', ...env }, ['--demo']);
  const url = await listeningAt(proc, START_TIMEOUT_MS);
  if (!url) {
    await proc.stop();
    throw new Error(`instance ${name} did not start:\n${proc.output()}`);
  }
  if (!(await healthy(url, proc, 30_000))) {
    await proc.stop();
    throw new Error(`instance ${name} is not healthy:\n${proc.output()}`);
  }
  return { name, url, proc };
}

/** kill -9: the process gets no chance to finish anything. Resolves when it is gone. */
export async function killHard(instance: Instance): Promise<void> {
  instance.proc.child.kill('SIGKILL');
  await instance.proc.exited;
}

export interface Answer {
  status: number;
  body: Record<string, unknown>;
}

let nextAddress = 1;
/** A new documentation-range address (RFC 5737) for each browser of a test run. */
export function newAddress(): string {
  const n = nextAddress++;
  return `198.51.${Math.floor(n / 250) % 250}.${(n % 250) + 1}`;
}

/**
 * One browser: its cookies (session, browser-binding nonce) go to whichever instance it calls, as
 * they would behind one host name (cookies do not depend on the port), and its own address.
 */
export class Browser {
  readonly cookies = new Map<string, string>();

  constructor(readonly address: string = newAddress()) {}

  headers(extra: Record<string, string> = {}): Record<string, string> {
    const cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    return { 'x-forwarded-for': this.address, ...(cookie ? { cookie } : {}), ...extra };
  }

  keep(setCookies: readonly string[]): void {
    for (const c of setCookies) {
      const pair = c.split(';')[0]!;
      const name = pair.slice(0, pair.indexOf('='));
      const value = pair.slice(pair.indexOf('=') + 1);
      if (value === '' || /max-age=0\b|expires=thu, 01 jan 1970/i.test(c)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  /** One request on a connection of its own (behind a round-robin proxy, each request goes to the next instance). */
  call(to: Endpoint, method: string, path: string, payload?: unknown, type = 'application/json'): Promise<Answer> {
    const body = payload === undefined ? undefined : typeof payload === 'string' ? payload : JSON.stringify(payload);
    const headers = this.headers(body === undefined ? {} : { 'content-type': type, 'content-length': String(Buffer.byteLength(body)) });
    return new Promise((resolve, reject) => {
      const req = http.request(`${to.url}${path}`, { method, headers, agent: false, timeout: 60_000 }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('error', reject);
        res.on('end', () => {
          this.keep(res.headers['set-cookie'] ?? []);
          let parsed: Record<string, unknown>;
          try {
            parsed = text ? (JSON.parse(text) as Record<string, unknown>) : {};
          } catch {
            parsed = { text };
          }
          resolve({ status: res.statusCode ?? 0, body: parsed });
        });
      });
      req.on('timeout', () => req.destroy(new Error(`${method} ${path}: no answer from ${to.name} within 60 s`)));
      req.on('error', reject);
      req.end(body);
    });
  }

  post(to: Endpoint, path: string, payload: unknown): Promise<Answer> {
    return this.call(to, 'POST', path, payload);
  }

  get(to: Endpoint, path: string): Promise<Answer> {
    return this.call(to, 'GET', path);
  }

  /** A challenge from this instance, solved as the browser's widget does: the recaptchaToken to send. */
  async botToken(instance: Endpoint, action: string): Promise<string> {
    const res = await this.post(instance, '/ws/bot-check/challenge', { action });
    if (res.status !== 200) throw new Error(`bot-check challenge: ${res.status} ${JSON.stringify(res.body)}`);
    const challenge = res.body as unknown as Challenge;
    const solution = await solveChallenge({ challenge, deriveKey });
    if (!solution) throw new Error('bot-check challenge could not be solved');
    return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
  }
}

export type { OutboxMessage };

/** Every email and text to this address or phone, newest first (/dev/outbox of any instance: it reads the database). */
export async function outbox(instance: Endpoint, to: string): Promise<OutboxMessage[]> {
  const res = await fetch(`${instance.url}/dev/outbox?to=${encodeURIComponent(to)}`, { signal: AbortSignal.timeout(30_000) });
  if (!res.ok) throw new Error(`outbox: ${res.status}`);
  return (await res.json()) as OutboxMessage[];
}

/** The code at the end of a link (/resetPassword/{code}, /activate/{key}). */
export const lastPart = (link: string | undefined): string => decodeURIComponent((link ?? '').split('/').pop() ?? '');
