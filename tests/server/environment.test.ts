/**
 * The environment's schema (server/env/variables.ts) and what it guards: every variable the server
 * reads is in it, .env.example is rendered from it, each mistake is one line that names the variable,
 * a variable of ours that the schema lacks is reported with the nearest name; outside demo mode a
 * channel without a transport stops the start unless DELIVERY=hold says so (then a warning at every
 * start and the frontdoor_delivery_held gauge); `--env-file` adds a file's variables.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { logLines } from '../../scripts/server-output';
import { checkEnvironment, parseAllowedHosts } from '../../server/config';
import { renderEnvExample } from '../../server/env/example';
import { applyEnvFiles } from '../../server/env/file';
import { VARIABLE_NAMES, VARIABLES } from '../../server/env/variables';
import { variableOf } from '../../server/ops/log';
import { healthy, listeningAt, startServer } from '../security/attack-helpers';
import { TEST_APP_SECRET } from './helpers';

const production = { NODE_ENV: 'production', APP_SECRET: TEST_APP_SECRET, PUBLIC_URL: 'https://signin.example.test' };
const transports = { SMTP_URL: 'smtp://relay.example.test:587', MAIL_FROM: 'no-reply@example.test', SMS_PROVIDER: 'twilio' };
const twilio = { TWILIO_ACCOUNT_SID: `AC${'0'.repeat(32)}`, TWILIO_AUTH_TOKEN: 'token', TWILIO_FROM: '+14155550100' };

function serverSources(dir = 'server'): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? serverSources(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : []));
}

describe('the schema of the environment', () => {
  it('holds every variable the server and the admin command read', () => {
    const read = new Set<string>();
    const patterns = [/\benv\??\.([A-Z][A-Z0-9_]+)\b/g, /\benv\[['"]([A-Z][A-Z0-9_]+)['"]\]/g, /\b(?:env|set)\((?:env, )?['"]([A-Z][A-Z0-9_]+)['"]/g];
    for (const file of serverSources()) {
      const text = fs.readFileSync(file, 'utf8');
      for (const pattern of patterns) for (const m of text.matchAll(pattern)) read.add(m[1] as string);
    }
    expect(read.size).toBeGreaterThan(30);
    expect([...read].filter((name) => !VARIABLE_NAMES.has(name)).sort()).toEqual([]);
    for (const v of VARIABLES) expect(v.about.length, v.name).toBeGreaterThan(5);
  });

  it('.env.example lists every variable and no other, as rendered from the schema (npm run env:example)', () => {
    expect(fs.readFileSync('.env.example', 'utf8')).toBe(renderEnvExample());
    const listed = [...fs.readFileSync('.env.example', 'utf8').matchAll(/^#([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1]);
    expect(listed.sort()).toEqual([...VARIABLE_NAMES].sort());
  });

  it('each mistake is one line naming its variable; a variable of ours the schema lacks is a warning with the nearest name', () => {
    const { problems, settings } = checkEnvironment(
      { ...production, ...transports, ...twilio, DELIVERY: 'maybe', METRICS_PORT: '8080', ALLOWED_HOSTS: '10.0.0.0/40', SMTP_ULR: 'x' },
      [],
    );
    expect(problems).toEqual([
      expect.stringMatching(/^ALLOWED_HOSTS: "10\.0\.0\.0\/40" is not a CIDR range/),
      expect.stringMatching(/^DELIVERY must be one of hold, not "maybe"\.$/),
      expect.stringMatching(/^METRICS_PORT must differ from PORT \(8080\)/),
    ]);
    expect(problems.map(variableOf)).toEqual(['ALLOWED_HOSTS', 'DELIVERY', 'METRICS_PORT']);
    for (const p of problems) expect(p).not.toMatch(/\n/);
    expect(settings.warnings).toEqual(['SMTP_ULR is not a variable of this server (did you mean SMTP_URL?); it is ignored.']);
  });

  it('ALLOWED_HOSTS takes names, addresses and CIDR ranges', () => {
    expect(parseAllowedHosts('signin.internal, 10.0.0.0/8,fd00::/8,10.1.2.3')).toEqual({
      names: ['signin.internal'],
      ranges: ['10.0.0.0/8', 'fd00::/8', '10.1.2.3'],
    });
    for (const bad of ['https://x.test', 'x.test:8080', '10.0.0.0/33', 'a b']) expect(() => parseAllowedHosts(bad), bad).toThrow(/ALLOWED_HOSTS/);
  });

  it("WEBAUTHN_RP_ID: a domain name, PUBLIC_URL's host or a parent domain of it (one line each)", () => {
    const with_ = (rpId: string, publicUrl = 'https://signin.example.test') =>
      checkEnvironment({ ...production, ...transports, ...twilio, PUBLIC_URL: publicUrl, WEBAUTHN_RP_ID: rpId }, []).problems;
    expect(with_('example.test')).toEqual([]);
    expect(with_('signin.example.test')).toEqual([]);
    expect(with_('Example.Test.')).toEqual([]);
    expect(with_('other.test')).toEqual([
      expect.stringMatching(/^WEBAUTHN_RP_ID \(other\.test\) must be PUBLIC_URL's host \(signin\.example\.test\) or a parent domain/),
    ]);
    // Not a parent domain, only a suffix of the name.
    expect(with_('ample.test')).toHaveLength(1);
    for (const bad of ['https://example.test', 'example.test:443', 'example.test/path', '10.0.0.1', '[::1]', 'a b'])
      expect(with_(bad), bad).toEqual([expect.stringMatching(/^WEBAUTHN_RP_ID must be a domain name/)]);
  });

  it('APP_SECRET_PREVIOUS needs a different APP_SECRET beside it', () => {
    const with_ = (previous: string) => checkEnvironment({ ...production, ...transports, ...twilio, APP_SECRET_PREVIOUS: previous }, []).problems;
    expect(with_(`${TEST_APP_SECRET}-old`)).toEqual([]);
    expect(with_(TEST_APP_SECRET)).toEqual([expect.stringMatching(/^APP_SECRET_PREVIOUS is the secret a rotation replaces/)]);
    expect(with_('short')).toEqual([expect.stringMatching(/^APP_SECRET_PREVIOUS must be at least 32 characters/)]);
  });
});

describe('delivery outside demo mode', () => {
  it('without a transport for email or texts the start is refused in one line, unless DELIVERY=hold', () => {
    expect(checkEnvironment(production, []).problems).toEqual([
      expect.stringMatching(/^SMTP_URL \(email\) and SMS_PROVIDER \(texts\) are not configured: .* set DELIVERY=hold to start anyway/),
    ]);
    const emailOnly = checkEnvironment({ ...production, SMTP_URL: transports.SMTP_URL, MAIL_FROM: transports.MAIL_FROM }, []);
    expect(emailOnly.problems).toEqual([expect.stringMatching(/^SMS_PROVIDER \(texts\) is not configured/)]);
    const held = checkEnvironment({ ...production, DELIVERY: 'hold' }, []);
    expect(held.problems).toEqual([]);
    expect(held.settings.held).toEqual(['email', 'sms']);
    // Control: with both transports nothing is held and nothing is asked for.
    const full = checkEnvironment({ ...production, ...transports, ...twilio }, []);
    expect(full.problems).toEqual([]);
    expect(full.settings.held).toEqual([]);
    // Demo mode holds without being told (the outbox shows every message).
    expect(checkEnvironment({ DEV_TOOLS: '1' }, []).problems).toEqual([]);
  });
});

describe('--env-file', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-env-file-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('adds the file’s variables; the environment wins; a missing file is one line', () => {
    const file = path.join(dir, 'a.env');
    fs.writeFileSync(file, `# comment\nPORT=9090\nMAIL_FROM="Acme <no-reply@acme.test>"\nHOST=0.0.0.0\n`);
    const env: NodeJS.ProcessEnv = { HOST: '127.0.0.1' };
    const result = applyEnvFiles(['--demo', '--env-file', file, `--env-file=${path.join(dir, 'missing.env')}`], env);
    expect(result.argv).toEqual(['--demo']);
    expect(result.files).toEqual([file]);
    expect(env).toEqual({ HOST: '127.0.0.1', PORT: '9090', MAIL_FROM: 'Acme <no-reply@acme.test>' });
    expect(result.problems).toEqual([expect.stringMatching(/^--env-file .*missing\.env cannot be read: ENOENT\.$/)]);
  });

  it('a production start from an env file with DELIVERY=hold: one warning line that says what is held, /metrics not served', async () => {
    const file = path.join(dir, 'production.env');
    fs.writeFileSync(file, `APP_SECRET=${TEST_APP_SECRET}\nPUBLIC_URL=https://signin.example.test\nDELIVERY=hold\nDB_PATH=:memory:\n`);
    const proc = startServer({ NODE_ENV: 'production', PORT: '0' }, ['--env-file', file]);
    try {
      const base = await listeningAt(proc);
      expect(base, proc.output()).toBeDefined();
      expect(await healthy(base!, proc)).toBe(true);
      const lines = logLines(proc.output());
      expect(lines).toHaveLength(proc.output().trim().split('\n').length);
      expect(lines.filter((l) => /held, never sent/.test(l.msg))).toEqual([expect.objectContaining({ level: 40, held: ['email', 'sms'] })]);
      expect(lines.map((l) => l.msg)).toContainEqual(expect.stringMatching(/^\/metrics: not served \(404\): set METRICS_TOKEN .* or METRICS_PORT/));
      expect((await fetch(`${base}/metrics`)).status).toBe(404);
    } finally {
      await proc.stop();
    }
  }, 60_000);
});
