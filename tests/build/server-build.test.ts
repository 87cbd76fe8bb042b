/**
 * The production server is JavaScript run by node (no tsx): scripts/build-server.ts compiles
 * server/ file by file (migrations included), copies the images, and the result starts, answers /readyz and
 * /ws/openapi.json, and stops cleanly on SIGTERM.
 */
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { buildServer } from '../../scripts/build-server';
import { listeningPort, logLines } from '../../scripts/server-output';

const out = path.resolve('build', `server-build-test-${crypto.randomBytes(4).toString('hex')}`, 'server');
afterAll(() => fs.rmSync(path.dirname(out), { recursive: true, force: true }));

it('compiles every module, the migrations too; the output runs under plain node', async () => {
  const { compiled, copied } = buildServer(out);
  expect(compiled).toBeGreaterThan(50);
  expect(copied).toBeGreaterThanOrEqual(2);
  for (const f of ['main.js', 'admin/main.js', 'db/migrations/001_init.js', 'db/migrations/index.js', 'static/branding/acme-logo.svg']) {
    expect(fs.existsSync(path.join(out, f)), f).toBe(true);
  }
  const main = fs.readFileSync(path.join(out, 'main.js'), 'utf8');
  expect(main).not.toMatch(/from '\.[^']*\.ts'|: string|interface /);

  const child = spawn(process.execPath, [path.join(out, 'main.js')], {
    env: { PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', DB_PATH: ':memory:', DEV_TOOLS: '1', NODE_ENV: 'test', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output += String(d)));
  child.stderr.on('data', (d) => (output += String(d)));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  try {
    const until = Date.now() + 45_000;
    while (listeningPort(output) === undefined && Date.now() < until && child.exitCode === null) await new Promise((r) => setTimeout(r, 100));
    const port = listeningPort(output);
    expect(port, output).toBeDefined();
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
    expect(await ready.json()).toEqual({ ok: true, database: 'sqlite' });
    const doc = (await (await fetch(`http://127.0.0.1:${port}/ws/openapi.json`)).json()) as { openapi: string };
    expect(doc.openapi).toBe('3.1.0');
  } finally {
    child.kill('SIGTERM');
  }
  expect(await exited).toBe(0);
  expect(logLines(output).map((l) => l.msg)).toContain('closed');
}, 90_000);
