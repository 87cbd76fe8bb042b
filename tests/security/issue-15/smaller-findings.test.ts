/**
 * The attack of issue 15, findings 11 (the smaller findings), replayed against the real server
 * (docs/security.md): each finding must fail now; the figures measured on the way are checked against
 * the document's table.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../../server/services/limits';
import { login, makeApp, PASSWORD, post, row, send, sessionCookie } from '../../server/helpers';
import { newStore } from '../../server/test-database';
import { DEMO_TOTP_SECRET, figure, healthy, listeningAt, outbox, startServer, reportFigures } from '../attack-helpers';

describe('11. smaller findings', () => {
  it('argon2id for new hashes; a scrypt hash verifies once and is replaced', async () => {
    const app = await makeApp({ rateLimit: false });
    try {
      const { createPasswordService } = await import('../../../server/crypto/passwords');
      const legacy = 'scrypt$16384$8$1$' + 'c2FsdHNhbHRzYWx0c2FsdA' + '$';
      const crypto = await import('node:crypto');
      const key = crypto.scryptSync(PASSWORD, Buffer.from('c2FsdHNhbHRzYWx0c2FsdA', 'base64url'), 32, { N: 16384, r: 8, p: 1 });
      await app.fd.data.run("UPDATE users SET password_hash = ? WHERE email = 'nomfa@demo.test'", [legacy + key.toString('base64url')]);
      expect((await login(app, 'nomfa@demo.test')).body.resultCode).toBe('SUCCESS');
      const stored = (await row<{ password_hash: string }>(app, "SELECT password_hash FROM users WHERE email = 'nomfa@demo.test'")).password_hash;
      expect(stored).toMatch(/^\$argon2id\$v=19\$m=\d+,t=\d+,p=1\$/);
      expect((await login(app, 'nomfa@demo.test')).body.resultCode).toBe('SUCCESS');
      expect(createPasswordService().cost).toEqual({ memoryCost: 19456, timeCost: 2, parallelism: 1 });
      figure(11, 'password hash', 'scrypt N=2^14', 'argon2id m=19 MiB, t=2, p=1 (scrypt re-hashed at sign-in)');
    } finally {
      await app.close();
    }
  });

  it('TOTP secrets are encrypted at rest', async () => {
    const store = await newStore({ shared: true });
    const app = await makeApp(store.options);
    let closed = false;
    try {
      const secrets = (await app.fd.data.all<{ secret: string }>("SELECT secret FROM mfa_enrolments WHERE type = 'TOTP'")).map((r) => r.secret);
      expect(secrets.length).toBeGreaterThan(0);
      for (const s of secrets) expect(s).toMatch(/^enc1:/);
      await app.close();
      closed = true;
      // SQLite: the file itself (closing the last connection folds the WAL into it).
      if (store.options.dbPath) expect(fs.readFileSync(store.options.dbPath).includes(Buffer.from(DEMO_TOTP_SECRET))).toBe(false);
      figure(11, 'TOTP secrets readable in the database file', 'yes', 'no (AES-256-GCM)');
    } finally {
      if (!closed) await app.close();
      await store.dispose();
    }
  });

  it('Cache-Control: no-store on every answer that carries a token or secret', async () => {
    const app = await makeApp({ rateLimit: false });
    try {
      const answers = [
        await post(app, '/ws/account/login', { email: 'tech@demo.test', password: PASSWORD }),
        await post(app, '/ws/account/reset-password-verify', { email: 'sms@demo.test', verificationCode: '123456' }),
        await post(app, '/ws/account/config-totp', { userToken: (await login(app, 'setup@demo.test')).body.userToken }),
        await post(app, '/ws/account/validate-invitation', { invitationCode: 'DEMO-INVITE-NATIVE' }),
        await post(app, '/ws/bot-check/challenge', { action: 'login' }),
      ];
      for (const a of answers) expect(a.headers['cache-control'], a.body).toBe('no-store');
      figure(11, 'token-carrying answers without Cache-Control: no-store', '4 of 4', answers.filter((a) => a.headers['cache-control'] !== 'no-store').length);
    } finally {
      await app.close();
    }
  });

  it('SMS pumping: 280 texts to one phone become 5 an hour', async () => {
    const app = await makeApp({ rateLimit: false });
    try {
      const { body } = await login(app, 'sms@demo.test');
      for (let i = 0; i < 280; i += 1) await post(app, '/ws/account/switch-mfa', { loginToken: body.loginToken, mfaType: 'SMSOTP' });
      const texts = (await outbox(app, '+14155550123')).length;
      expect(texts).toBe(LIMITS.textsPerPhonePerHour);
      figure(11, 'texts to one phone from 281 requests', '280 in 4.7 s', texts);
    } finally {
      await app.close();
    }
  });

  it('academy links only for configured academies, with the academy as audience; /dev/idp survives a non-Latin-1 returnTo', async () => {
    const app = await makeApp({ rateLimit: false, academyHosts: ['https://academy.example.test'] });
    try {
      const cookie = sessionCookie((await login(app, 'nomfa@demo.test')).res)!.split(';')[0]!;
      const link = (route: string) => app.inject({ url: `/ws/integrations/academy/sso-link?route=${encodeURIComponent(route)}`, headers: { cookie } });
      expect((await link('https://evil.example/steal')).statusCode).toBe(400);
      const ok = await link('https://academy.example.test/course');
      const jwt = new URL((ok.json() as { url: string }).url).searchParams.get('jwt')!;
      expect(JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString())).toMatchObject({ aud: 'https://academy.example.test' });

      // /dev/idp serves SSO users without a connection: sso@ as it was before its demo SAML connection.
      await app.fd.data.run("UPDATE users SET sso_connection_id = NULL WHERE email = 'sso@demo.test'");
      const saml = await post(app, '/ws/account/saml-init', { email: 'sso@demo.test', returnTo: '/app/ünïcødé/日本' });
      const request = new URL((saml.json() as { url: string }).url, 'http://localhost').searchParams.get('request')!;
      const done = await send(app, {
        method: 'POST',
        url: '/dev/idp',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: `request=${encodeURIComponent(request)}`,
      });
      expect(done.statusCode).toBe(303);
      expect(done.headers.location).toBe('/app/%C3%BCn%C3%AFc%C3%B8d%C3%A9/%E6%97%A5%E6%9C%AC');
      figure(11, 'academy tokens for any host / /dev/idp on a non-Latin-1 returnTo', 'minted, no audience / 500', 'refused, audience set / 303');
    } finally {
      await app.close();
    }
  });

  it('two instances started together on a fresh database both run and share secrets, limits and data', async () => {
    // A fresh database of the run's engine (an empty PostgreSQL schema, or a new SQLite file).
    const store = await newStore({ shared: true });
    const where: Record<string, string> = store.options.databaseUrl ? { DATABASE_URL: store.options.databaseUrl } : { DB_PATH: store.options.dbPath! };
    const env = { ...where, DEV_TOOLS: '1', HOST: '127.0.0.1' };
    const a = startServer({ ...env, PORT: '0' });
    const b = startServer({ ...env, PORT: '0' });
    try {
      const [baseA, baseB] = await Promise.all([listeningAt(a), listeningAt(b)]);
      expect(baseA, a.output()).toBeDefined();
      expect(baseB, b.output()).toBeDefined();
      const [upA, upB] = await Promise.all([healthy(baseA!, a), healthy(baseB!, b)]);
      expect(upA, a.output()).toBe(true);
      expect(upB, b.output()).toBe(true);
      // A sign-in request signed by A (the demo SAML connection's key, sealed with the one demo secret
      // kept in the shared database) is accepted by B's demo IdP.
      const saml = await fetch(`${baseA}/ws/account/saml-init`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'sso@demo.test' }),
      });
      const url = new URL(((await saml.json()) as { url: string }).url);
      const idp = await fetch(`${baseB}${url.pathname}${url.search}`);
      expect(idp.status).toBe(200);
      expect(await idp.text()).toContain('Continue as sso@demo.test');
      // A failure counted by A is seen by B.
      for (let i = 0; i < 3; i += 1)
        await fetch(`${baseA}/ws/account/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: 'user@demo.test', password: 'x' }),
        });
      const state = await fetch(`${baseB}/ws/account/authentication-state`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'user@demo.test' }),
      });
      expect(await state.json()).toMatchObject({ recaptchaRequired: true });
      figure(
        11,
        'two instances started together on a fresh database',
        'second crashes on migrations; tokens of one refused by the other',
        'both serve; shared secrets and counters',
      );
    } finally {
      await Promise.all([a.stop(), b.stop()]);
      await store.dispose();
    }
  }, 180_000);
});

reportFigures('1-issue-15-d', 'The attack of issue 15, finding 11');
