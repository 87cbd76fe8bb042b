/**
 * The attack of issue 15, findings 4 to 7 (the failure gate, lock-out, limits, TRUST_PROXY), replayed
 * against the real server (docs/security.md): each finding must fail now; the figures measured on the
 * way are checked against the document's table.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConfigError, parseTrustProxy } from '../../../server/config';
import { LIMITS } from '../../../server/services/limits';
import { botToken, login, makeApp, PASSWORD, post, TEST_APP_SECRET } from '../../server/helpers';
import { newStore } from '../../server/test-database';
import { anyAddress, figure, outbox, reportFigures } from '../attack-helpers';

describe('4. race on the three-failure gate', () => {
  it('30 concurrent wrong passwords: 3 are checked', async () => {
    const app = await makeApp({ rateLimit: false });
    try {
      let checked = 0;
      const verify = app.fd.passwords.verify;
      app.fd.passwords.verify = async (pw, stored) => {
        checked += 1;
        return verify(pw, stored);
      };
      const codes = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          post(app, '/ws/account/login', { email: 'nomfa@demo.test', password: `Wrong-${i}` }, anyAddress()).then(
            (r) => (r.json() as { resultCode: string }).resultCode,
          ),
        ),
      );
      expect(checked).toBe(LIMITS.botCheckAfterFailures);
      expect(codes.filter((c) => c === 'HUMAN_VERIFICATION_FAILED').length).toBe(30 - LIMITS.botCheckAfterFailures);
      figure(4, 'passwords checked of 30 concurrent wrong sign-ins', '30', checked);
    } finally {
      await app.close();
    }
  });
});

describe('5. lock-out without a password', () => {
  it('300 authentication-state probes change nothing for the victim', async () => {
    const app = await makeApp();
    try {
      const t0 = performance.now();
      const probes = await Promise.all(Array.from({ length: 300 }, () => post(app, '/ws/account/authentication-state', { email: 'nomfa@demo.test' })));
      expect(probes.every((r) => r.statusCode === 200)).toBe(true);
      expect((probes.at(-1)!.json() as { recaptchaRequired: boolean }).recaptchaRequired).toBe(false);
      const victim = await post(app, '/ws/account/login', { email: 'nomfa@demo.test', password: PASSWORD }, { remoteAddress: '192.0.2.77' });
      expect(victim.json()).toMatchObject({ resultCode: 'SUCCESS' });
      const reset = await post(app, '/ws/account/reset-password-init', { email: 'nomfa@demo.test', verifyBy: 'EMAIL' }, { remoteAddress: '192.0.2.77' });
      expect(reset.json()).toEqual({ resultCode: 'SUCCESS' });
      figure(5, `victim's sign-in after 300 probes (${Math.round(performance.now() - t0)} ms)`, 'locked out 5 minutes', 'SUCCESS');
    } finally {
      await app.close();
    }
  });
});

describe('6. limits', () => {
  it(`wrong passwords per account per hour: ${LIMITS.accountFailuresPerHour}, from many addresses, each with a solved bot check`, async () => {
    let clock = Date.now();
    const app = await makeApp({ rateLimit: false, now: () => clock, botCheckWork: { min: 1, max: 20 } });
    try {
      let checked = 0;
      let locked = 0;
      for (let i = 0; i < 150; i += 1) {
        const res = await post(
          app,
          '/ws/account/login',
          { email: 'tech@demo.test', password: `Wrong-${i}`, recaptchaToken: await botToken(app, 'login') },
          anyAddress(),
        );
        if (res.statusCode === 429) locked += 1;
        else if ((res.json() as { resultCode: string }).resultCode === 'AUTHENTICATION_FAILURE') checked += 1;
        clock += 1000;
      }
      expect(checked).toBe(LIMITS.accountFailuresPerHour);
      expect(locked).toBe(150 - LIMITS.accountFailuresPerHour);
      figure(6, 'wrong passwords checked per account per hour', '~3,600 (300 per 5 min)', checked);
      // The owner gets back in by email: a reset forgives the failures.
      await post(app, '/ws/account/reset-password-init', { email: 'tech@demo.test', verifyBy: 'EMAIL' });
      const link = (await outbox(app, 'tech@demo.test'))[0]!.link!;
      const commit = await post(app, '/ws/account/reset-password-commit', {
        verificationCode: decodeURIComponent(link.split('/').pop()!),
        password: 'N3w-Passw0rd!',
      });
      expect(commit.json()).toMatchObject({ resultCode: 'MFA_REQUIRED' });
      // After the hour the window is new.
      clock += 60 * 60 * 1000;
      expect((await login(app, 'tech@demo.test', 'N3w-Passw0rd!')).body.resultCode).toBe('MFA_REQUIRED');
    } finally {
      await app.close();
    }
  }, 60_000);

  it(`one address spends at most ${LIMITS.accountAddressFailuresPerHour} of an account's failures`, async () => {
    const app = await makeApp({ rateLimit: false, botCheckWork: { min: 1, max: 20 } });
    try {
      let checked = 0;
      for (let i = 0; i < 30; i += 1) {
        const res = await post(
          app,
          '/ws/account/login',
          { email: 'user@demo.test', password: 'x', recaptchaToken: await botToken(app, 'login') },
          { remoteAddress: '203.0.113.50' },
        );
        if (res.statusCode === 200) checked += 1;
      }
      expect(checked).toBe(LIMITS.accountAddressFailuresPerHour);
      expect(
        (
          await post(
            app,
            '/ws/account/login',
            { email: 'user@demo.test', password: PASSWORD, recaptchaToken: await botToken(app, 'login') },
            { remoteAddress: '203.0.113.51' },
          )
        ).json(),
      ).toMatchObject({ resultCode: 'SUCCESS' });
      figure(6, 'wrong passwords per (account, address) per hour', 'no such limit', checked);
    } finally {
      await app.close();
    }
  });

  it('the per-address limit is one bucket for every route, shared by instances on one database', async () => {
    const store = await newStore({ shared: true });
    const a = await makeApp({ ...store.options, appSecret: TEST_APP_SECRET });
    const b = await makeApp({ ...store.options, appSecret: TEST_APP_SECRET, seed: false });
    try {
      const from = { remoteAddress: '203.0.113.9' };
      let ok = 0;
      for (let i = 0; i < LIMITS.callsPerAddressPerMinute; i += 1) {
        const app = i % 2 ? a : b;
        const url = ['/ws/account/authentication-state', '/ws/account/reset-password-init', '/ws/account/login'][i % 3]!;
        const payload = url.endsWith('state')
          ? { email: `p${i}@x.test` }
          : url.endsWith('init')
            ? { email: `p${i}@x.test`, verifyBy: 'EMAIL' }
            : { email: `p${i}@x.test`, password: 'x' };
        if ((await post(app, url, payload, from)).statusCode !== 429) ok += 1;
      }
      const next = await post(b, '/ws/account/login', { email: 'x@x.test', password: 'x' }, from);
      expect(next.statusCode).toBe(429);
      figure(6, 'calls per address per minute, all sign-in routes and instances together', '300 per route per process', ok);
    } finally {
      await a.close();
      await b.close();
      await store.dispose();
    }
  }, 60_000);

  it('docs/server.md and docs/security.md state the numbers of services/limits.ts', () => {
    const server = fs.readFileSync('docs/server.md', 'utf8');
    const security = fs.readFileSync('docs/security.md', 'utf8');
    for (const [name, value] of Object.entries(LIMITS)) {
      if (typeof value !== 'number') continue;
      expect(server, `docs/server.md names LIMITS.${name} = ${value}`).toContain(`\`${name}\` | ${value}`);
    }
    expect(security).toContain(`${LIMITS.accountFailuresPerHour} failed sign-ins per account per hour`);
  });
});

describe('7. TRUST_PROXY trusts named proxies only', () => {
  it('TRUST_PROXY=1 is refused at start-up', () => {
    for (const bad of ['1', 'true', '*', 'yes']) expect(() => parseTrustProxy(bad), bad).toThrow(ConfigError);
    expect(parseTrustProxy('10.0.0.0/8, 127.0.0.1')).toEqual(['10.0.0.0/8', '127.0.0.1']);
  });

  it('X-Forwarded-For from an unknown hop neither passes the IP allow-list nor escapes the address limit', async () => {
    const app = await makeApp({ trustProxy: ['10.0.0.0/8'], rateLimit: { max: 5, timeWindowMs: 60_000 } });
    try {
      const spoof = (i: number) => ({ remoteAddress: '198.51.100.7', headers: { 'x-forwarded-for': `203.0.113.${i}` } });
      expect((await post(app, '/ws/account/login', { email: 'blocked-ip@demo.test', password: PASSWORD }, spoof(5))).json()).toEqual({
        resultCode: 'IP_ADDRESS_NOT_ALLOWED',
      });
      let passed = 0;
      for (let i = 0; i < 20; i += 1)
        if ((await post(app, '/ws/account/authentication-state', { email: 'a@b.test' }, spoof(i))).statusCode === 200) passed += 1;
      expect(passed).toBe(4); // the 5th call of this address (the login above was the 1st)
      // Through the configured proxy the client's address is believed.
      const viaProxy = await post(
        app,
        '/ws/account/login',
        { email: 'blocked-ip@demo.test', password: PASSWORD },
        { remoteAddress: '10.1.2.3', headers: { 'x-forwarded-for': '203.0.113.5' } },
      );
      expect(viaProxy.json()).toMatchObject({ resultCode: 'SUCCESS' });
      figure(7, 'calls passed with a new X-Forwarded-For each, limit 5', '20 of 20 (limits and allow-list bypassed)', `${passed + 1} of 21`);
    } finally {
      await app.close();
    }
  });
});

reportFigures('1-issue-15-b', 'The attack of issue 15, findings 4 to 7');
