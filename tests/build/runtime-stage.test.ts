/**
 * The release as the image ships it: the Dockerfile's runtime stage assembled COPY line by COPY line
 * (runtime-stage.ts: the production dependencies of package-lock.json only, the compiled server and
 * app, schemas/ and locales/) into a folder outside the repository, then its CMD started in production
 * mode on a PostgreSQL database of its own: the admin command migrates and makes a tenant, /readyz
 * answers, the tenant's administrator signs in, the admin command lists them, SIGTERM ends it cleanly.
 * Where a container engine answers, the image itself is built and run too; elsewhere that part says
 * why it did not run.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listeningPort, logLines } from '../../scripts/server-output';
import { newPostgresDatabase, POSTGRES_REQUIRED, POSTGRES_URL, type TestDatabase } from '../server/db-engines';
import { readDockerfile } from './dockerfile';
import { assembleRuntimeStage, type RuntimeStage } from './runtime-stage';

const ROOT = path.resolve(__dirname, '../..');
const APP_SECRET = 'runtime-stage-test-secret-0123456789-abcdefgh';
const PASSWORD = 'Runtime-Stage-Passw0rd!';
const PUBLIC_URL = 'https://signin.acme.test';
const METRICS_TOKEN = 'runtime-stage-metrics-token-0123';

/** Nothing of this machine's environment but PATH and HOME: what the image would have. */
function environment(stage: RuntimeStage, database: string, extra: Record<string, string> = {}): Record<string, string> {
  return { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...stage.env, DATABASE_URL: database, APP_SECRET, PUBLIC_URL, ...extra };
}

function admin(stage: RuntimeStage, database: string, args: string[], input?: string): { code: number | null; out: string } {
  const result = spawnSync(process.execPath, ['dist/server/admin/main.js', ...args], {
    cwd: stage.dir,
    env: environment(stage, database),
    input: input ?? '',
    encoding: 'utf8',
  });
  return { code: result.status, out: `${result.stdout}${result.stderr}` };
}

const canRun = POSTGRES_URL !== undefined || POSTGRES_REQUIRED;

/** `node --import` of it reports every @opentelemetry module the process resolves, on stderr (otel-probe/hooks.mjs). */
const OTEL_PROBE = ['--import', path.join(__dirname, 'otel-probe/register.mjs')];
const otelLoaded = (output: string) => output.split('\n').filter((line) => line.startsWith('opentelemetry-loaded '));

describe.skipIf(!canRun)("the image's runtime stage, assembled from the Dockerfile, on PostgreSQL", () => {
  let stage: RuntimeStage;
  let database: TestDatabase;
  let server: ReturnType<typeof spawn> | undefined;
  let output = '';
  let base = '';

  beforeAll(async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-runtime-stage-'));
    stage = assembleRuntimeStage(ROOT, readDockerfile(path.join(ROOT, 'Dockerfile')), dir);
    database = await newPostgresDatabase();
  }, 120_000);

  afterAll(async () => {
    if (server && server.exitCode === null) server.kill('SIGKILL');
    await database?.dispose();
    if (stage) fs.rmSync(stage.dir, { recursive: true, force: true });
  });

  it('holds the production dependencies only, and the files the server reads', () => {
    const modules = path.join(stage.dir, 'node_modules');
    for (const present of ['fastify', 'better-sqlite3', 'pg', '@node-saml/node-saml', '@frontdoor/validators']) expect(fs.existsSync(path.join(modules, present)), present).toBe(true);
    for (const absent of ['vite', 'typescript', 'tsx', 'react', 'rolldown', '@sentry/react', 'vitest', 'eslint'])
      expect(fs.existsSync(path.join(modules, absent)), absent).toBe(false);
    for (const file of ['dist/server/main.js', 'dist/app/index.html', 'schemas/api', 'locales/en-us/email.json', 'locales/en-us/app.json'])
      expect(fs.existsSync(path.join(stage.dir, file)), file).toBe(true);
    for (const absent of ['server', 'src', 'tests', 'scripts', '.git']) expect(fs.existsSync(path.join(stage.dir, absent)), absent).toBe(false);
    expect(stage.env.NODE_ENV).toBe('production');
    expect(stage.command).toEqual(['node', 'dist/server/main.js']);
  });

  it('admin: migrate --status lists pending migrations, migrate applies them, create-tenant makes the first account', () => {
    const before = admin(stage, database.location, ['migrate', '--status']);
    expect(before.code, before.out).toBe(0);
    expect(before.out).toMatch(/^001_init\.sql\s+pending$/m);
    const migrated = admin(stage, database.location, ['migrate']);
    expect(migrated.code, migrated.out).toBe(0);
    expect(migrated.out).toMatch(/^applied 001_init\.sql$/m);
    const after = admin(stage, database.location, ['migrate', '--status']);
    expect(after.out).toMatch(/^001_init\.sql\s+applied \d{4}-/m);
    expect(after.out).toMatch(/up to date$/m);
    const tenant = admin(stage, database.location, ['create-tenant', '--name', 'Acme', '--email', 'admin@acme.test', '--no-mfa', '--password-stdin'], `${PASSWORD}\n`);
    expect(tenant.code, tenant.out).toBe(0);
    expect(tenant.out).toMatch(/tenant "Acme" created: organisation \d+/);
    // Four processes, each loading the compiled server and PostgreSQL's migrations: seconds each on a busy machine.
  }, 90_000);

  it('refuses a production start without email and text transports, in one line', () => {
    const [command, ...args] = stage.command;
    const refused = spawnSync(command === 'node' ? process.execPath : (command as string), args, {
      cwd: stage.dir,
      env: environment(stage, database.location, { PORT: '0', HOST: '127.0.0.1' }),
      encoding: 'utf8',
    });
    expect(refused.status).toBe(2);
    expect(logLines(refused.stdout).map((l) => [l.level, l.variable, l.msg])).toEqual([
      [60, 'SMTP_URL', expect.stringMatching(/^SMTP_URL \(email\) and SMS_PROVIDER \(texts\) are not configured: .*DELIVERY=hold/)],
    ]);
    expect(refused.stderr).toBe('');
  });

  it('starts its CMD in production mode (DELIVERY=hold said at start): /readyz answers with the database', async () => {
    const [command, ...args] = stage.command;
    // Probed: without OTEL_EXPORTER_OTLP_ENDPOINT no OpenTelemetry module may load (the last test).
    server = spawn(command === 'node' ? process.execPath : (command as string), [...OTEL_PROBE, ...args], {
      cwd: stage.dir,
      env: environment(stage, database.location, { PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', DELIVERY: 'hold', METRICS_TOKEN }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    server.stdout?.on('data', (d) => (output += String(d)));
    server.stderr?.on('data', (d) => (output += String(d)));
    const until = Date.now() + 60_000;
    while (listeningPort(output) === undefined && server.exitCode === null && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    expect(listeningPort(output), output).toBeDefined();
    base = `http://127.0.0.1:${listeningPort(output)}`;
    const ready = await fetch(`${base}/readyz`);
    expect(await ready.json()).toEqual({ ok: true, database: 'postgres' });
    const page = await fetch(`${base}/login`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<form');
    expect((await fetch(`${base}/dev/outbox`)).status).toBe(404);
    // Every line is JSON; the held channels are said at start and by the gauge.
    expect(logLines(output)).toHaveLength(output.trim().split('\n').length);
    expect(logLines(output).map((l) => l.msg)).toContainEqual(expect.stringMatching(/^DELIVERY=hold: emails and texts are held, never sent/));
    const metrics = await (await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
    expect(metrics).toMatch(/^frontdoor_delivery_held\{channel="email"\} 1$/m);
  }, 90_000);

  it("signs the tenant's administrator in, with the account the admin command made", async () => {
    const res = await fetch(`${base}/ws/account/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: PUBLIC_URL },
      body: JSON.stringify({ email: 'admin@acme.test', password: PASSWORD }),
    });
    expect(res.status, output).toBe(200);
    expect(((await res.json()) as { resultCode: string }).resultCode).toBe('SUCCESS');
    expect(res.headers.getSetCookie().some((c) => /^__Host-fd_session=/.test(c))).toBe(true);
  });

  it('loads no OpenTelemetry module without OTEL_EXPORTER_OTLP_ENDPOINT, though the image ships it', async () => {
    const config = (await (await fetch(`${base}/ws/app-config`)).json()) as Record<string, unknown>;
    expect(config).toHaveProperty('environment');
    expect(config).not.toHaveProperty('tracing');
    expect(otelLoaded(output)).toEqual([]);
    // Control: the probe reports the package when it is imported, from the stage's own node_modules.
    const imported = spawnSync(process.execPath, [...OTEL_PROBE, '--input-type=module', '-e', "await import('@opentelemetry/exporter-trace-otlp-http')"], {
      cwd: stage.dir,
      encoding: 'utf8',
    });
    expect(imported.status, imported.stderr).toBe(0);
    expect(otelLoaded(imported.stderr)).toContainEqual(expect.stringContaining(`${stage.dir}/node_modules/@opentelemetry/exporter-trace-otlp-http/`));
  });

  it('ends on SIGTERM with exit code 0', async () => {
    const exited = new Promise<number | null>((resolve) => server?.once('exit', resolve));
    server?.kill('SIGTERM');
    expect(await exited, output).toBe(0);
  });
});

/** The container engine that answers here (docker, then podman), or why none does. */
function containerEngine(): { engine?: string; reason: string } {
  for (const engine of ['docker', 'podman']) {
    const info = spawnSync(engine, ['info'], { encoding: 'utf8' });
    if (info.error) continue;
    if (info.status === 0) return { engine, reason: '' };
    return { reason: `${engine} is installed but has no engine: ${(info.stderr || info.stdout).trim().split('\n').at(-1) ?? ''}` };
  }
  return { reason: 'neither docker nor podman is installed' };
}

const container = containerEngine();
if (!container.engine) console.log(`runtime-stage: the image itself was not built: ${container.reason}`);

describe.skipIf(!container.engine)('the image, built and run by a container engine', () => {
  const engine = container.engine as string;
  const tag = `frontdoor-runtime-test:${process.pid}`;
  let id = '';

  afterAll(() => {
    if (id) spawnSync(engine, ['rm', '-f', id]);
    spawnSync(engine, ['rmi', '-f', tag]);
  });

  it('builds, becomes healthy on /readyz, and answers the admin command inside', async () => {
    execFileSync(engine, ['build', '-t', tag, ROOT], { stdio: 'inherit' });
    id = execFileSync(engine, ['run', '-d', '-p', '127.0.0.1::8080', '-e', `APP_SECRET=${APP_SECRET}`, '-e', `PUBLIC_URL=${PUBLIC_URL}`, '-e', 'DELIVERY=hold', tag], {
      encoding: 'utf8',
    }).trim();
    const port = execFileSync(engine, ['port', id, '8080'], { encoding: 'utf8' }).trim().split(':').at(-1);
    let ready: Response | undefined;
    for (let i = 0; i < 120 && !ready?.ok; i++) {
      ready = await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined);
      if (!ready?.ok) await new Promise((r) => setTimeout(r, 500));
    }
    expect(ready?.ok).toBe(true);
    const status = execFileSync(engine, ['exec', id, 'node', 'dist/server/admin/main.js', 'migrate', '--status'], { encoding: 'utf8' });
    expect(status).toMatch(/up to date/);
  }, 1_800_000);
});
