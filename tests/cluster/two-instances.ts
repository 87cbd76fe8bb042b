/**
 * Two real server processes, A and B, on one database (issue 25; issue 24's "limits live where all
 * instances see them"): whatever one instance decides, the other must know at once. Each test spreads
 * one visitor's or attacker's requests over both instances and carries a control proving that the
 * owner's path works across them. A and B start together on an empty database (migrations, demo seed
 * and secrets under concurrency), once per file; the last test kills A with SIGKILL during sign-ins
 * and starts it again. The demo tenant's accounts and /dev tools: README.md.
 * One file per engine (two-instances.<engine>.test.ts) calls twoInstanceSuite, so the two run in parallel.
 */
import { createGuardrails, generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRoundRobinProxy } from '../../scripts/round-robin-proxy';
import { LIMITS } from '../../server/services/limits';
import type { TestDatabase } from '../server/db-engines';
import {
  Browser,
  CLUSTER_ENGINES,
  engineInRun,
  killHard,
  lastPart,
  outbox,
  START_TIMEOUT_MS,
  startInstance,
  type EngineName,
  type Instance,
} from './cluster-helpers';

const PASSWORD = 'Demo-Passw0rd!';
const DEMO_TOTP_SECRET = 'JBSWY3DPEHPK3PXP';
const totp = (secret: string, atMs: number) => generate({ secret, epoch: Math.floor(atMs / 1000), guardrails: createGuardrails({ MIN_SECRET_BYTES: 10 }) });
/** A six-digit code that is not `code`. */
const wrongCode = (code: string, i: number) => String((Number(code) + 1 + i * 7919) % 1_000_000).padStart(6, '0');

export function twoInstanceSuite(name: EngineName): void {
  const engine = CLUSTER_ENGINES[name];
  const title = `two instances on one ${name} database`;
  if (!engineInRun(engine)) {
    describe.skip(title, () => it('needs DATABASE_URL (npm test starts a PostgreSQL server)', () => undefined));
    return;
  }
  describe(title, () => suite(engine));
}

function suite(engine: (typeof CLUSTER_ENGINES)[EngineName]): void {
  let db: TestDatabase | undefined;
  let env: Record<string, string> = {};
  let a: Instance;
  let b: Instance;
  /** A, then B, then A … */
  const alternate = (i: number) => (i % 2 === 0 ? a : b);

  beforeAll(async () => {
    db = await engine.create();
    env = engine.env(db);
    // Together, on an empty database: one migrates and seeds, the other waits for it (advisory lock / BEGIN IMMEDIATE).
    [a, b] = await Promise.all([startInstance('A', env), startInstance('B', env)]);
  }, 2 * START_TIMEOUT_MS);

  afterAll(async () => {
    await Promise.all([a?.proc.stop(), b?.proc.stop()]);
    await db?.dispose();
  }, 60_000);

  it("a session ended on A ('sign out everywhere', a password change) is refused on B", async () => {
    // Two devices of nomfa@, one signed in on each instance; each session works on the other instance (control).
    const laptop = new Browser();
    const phone = new Browser();
    expect((await laptop.post(a, '/ws/account/login', { email: 'nomfa@demo.test', password: PASSWORD })).body).toMatchObject({ resultCode: 'SUCCESS' });
    expect((await phone.post(b, '/ws/account/login', { email: 'nomfa@demo.test', password: PASSWORD })).body).toMatchObject({ resultCode: 'SUCCESS' });
    expect((await laptop.get(b, '/ws/account/session')).body).toMatchObject({ user: { email: 'nomfa@demo.test' } });
    expect((await phone.get(a, '/ws/account/session')).status).toBe(200);

    expect((await laptop.get(a, '/ws/account/logout?sessions=all')).status).toBe(200);
    expect((await phone.get(b, '/ws/account/session')).status).toBe(401);
    expect((await phone.get(a, '/ws/account/session')).status).toBe(401);
    // Control: signing in again works, on either instance.
    expect((await phone.post(b, '/ws/account/login', { email: 'nomfa@demo.test', password: PASSWORD })).body).toMatchObject({ resultCode: 'SUCCESS' });
    expect((await phone.get(a, '/ws/account/session')).status).toBe(200);

    // user@ is signed in on B; the owner changes the password (reset by email) on A.
    const signedIn = new Browser();
    expect((await signedIn.post(b, '/ws/account/login', { email: 'user@demo.test', password: PASSWORD })).body).toMatchObject({ resultCode: 'SUCCESS' });
    expect((await signedIn.get(a, '/ws/account/session')).status).toBe(200);
    const owner = new Browser();
    expect((await owner.post(a, '/ws/account/reset-password-init', { email: 'user@demo.test', verifyBy: 'EMAIL' })).body).toEqual({ resultCode: 'SUCCESS' });
    const link = (await outbox(b, 'user@demo.test'))[0]?.link;
    expect(link).toBeDefined();
    expect((await owner.post(a, '/ws/account/reset-password-commit', { verificationCode: lastPart(link), password: 'N3w-Owner-Pass' })).body).toMatchObject({
      resultCode: 'SUCCESS',
    });
    expect((await signedIn.get(b, '/ws/account/session')).status).toBe(401);
    expect((await signedIn.get(a, '/ws/account/session')).status).toBe(401);
    // Control: the new password works on B, the old one no longer does.
    expect((await new Browser().post(b, '/ws/account/login', { email: 'user@demo.test', password: PASSWORD })).body).toMatchObject({
      resultCode: 'AUTHENTICATION_FAILURE',
    });
    expect((await signedIn.post(b, '/ws/account/login', { email: 'user@demo.test', password: 'N3w-Owner-Pass' })).body).toMatchObject({
      resultCode: 'SUCCESS',
    });
    expect((await signedIn.get(a, '/ws/account/session')).status).toBe(200);
  }, 120_000);

  it('wrong guesses of a text-reset code spread over A and B share its five tries', async () => {
    const attacker = new Browser();
    expect((await attacker.post(a, '/ws/account/reset-password-init', { email: 'sms@demo.test', verifyBy: 'TEXT', phoneDigits: '0123' })).body).toEqual({
      resultCode: 'SUCCESS',
    });
    const code = (await outbox(b, '+14155550123'))[0]!.code!;
    expect(code).toMatch(/^\d{6}$/);
    const answers: unknown[] = [];
    for (let i = 0; i < 5; i += 1)
      answers.push(
        (await attacker.post(alternate(i), '/ws/account/reset-password-verify', { email: 'sms@demo.test', verificationCode: wrongCode(code, i) })).body
          .resultCode,
      );
    expect(answers).toEqual(Array(5).fill('UNKNOWN_VERIFICATION_CODE'));
    // Three tries were spent on A and two on B: together five, so the code is dead on both.
    for (const instance of [b, a])
      expect((await attacker.post(instance, '/ws/account/reset-password-verify', { email: 'sms@demo.test', verificationCode: code })).body).toEqual({
        resultCode: 'UNKNOWN_VERIFICATION_CODE',
      });

    // Control: a new code, asked for on B, one wrong guess on A, then the right code on B.
    const owner = new Browser();
    expect((await owner.post(b, '/ws/account/reset-password-init', { email: 'sms@demo.test', verifyBy: 'TEXT', phoneDigits: '0123' })).body).toEqual({
      resultCode: 'SUCCESS',
    });
    const fresh = (await outbox(a, '+14155550123'))[0]!.code!;
    expect((await owner.post(a, '/ws/account/reset-password-verify', { email: 'sms@demo.test', verificationCode: wrongCode(fresh, 0) })).body.resultCode).toBe(
      'UNKNOWN_VERIFICATION_CODE',
    );
    expect((await owner.post(b, '/ws/account/reset-password-verify', { email: 'sms@demo.test', verificationCode: fresh })).body).toMatchObject({
      resultCode: 'SUCCESS',
      verificationCode: expect.any(String),
    });
  }, 120_000);

  it('wrong guesses of a sign-in text code spread over A and B share its five tries', async () => {
    const attacker = new Browser();
    const mfa = (await attacker.post(a, '/ws/account/login', { email: 'sms@demo.test', password: PASSWORD })).body;
    expect(mfa).toMatchObject({ resultCode: 'MFA_REQUIRED', mfaType: 'SMSOTP' });
    const code = (await outbox(b, '+14155550123'))[0]!.code!;
    const answers: unknown[] = [];
    for (let i = 0; i < 5; i += 1)
      answers.push((await attacker.post(alternate(i + 1), '/ws/account/mfa-login', { loginToken: mfa.loginToken, code: wrongCode(code, i) })).body.resultCode);
    expect(answers).toEqual(Array(5).fill('INVALID_MFA_CODE'));
    for (const instance of [a, b])
      expect((await attacker.post(instance, '/ws/account/mfa-login', { loginToken: mfa.loginToken, code })).body.resultCode).not.toBe('SUCCESS');

    // Control: the owner signs in on B, misses once on A, then the right code on B opens a session A knows.
    const owner = new Browser();
    const again = (await owner.post(b, '/ws/account/login', { email: 'sms@demo.test', password: PASSWORD })).body;
    expect(again).toMatchObject({ resultCode: 'MFA_REQUIRED', mfaType: 'SMSOTP' });
    const fresh = (await outbox(a, '+14155550123'))[0]!.code!;
    expect((await owner.post(a, '/ws/account/mfa-login', { loginToken: again.loginToken, code: wrongCode(fresh, 0) })).body.resultCode).toBe(
      'INVALID_MFA_CODE',
    );
    expect((await owner.post(b, '/ws/account/mfa-login', { loginToken: again.loginToken, code: fresh })).body).toMatchObject({ resultCode: 'SUCCESS' });
    expect((await owner.get(a, '/ws/account/session')).status).toBe(200);
  }, 120_000);

  it('failed sign-ins spread over A and B count together; a solved bot check spent on one is refused on the other', async () => {
    const attacker = new Browser();
    const wrong = { email: 'tech@demo.test', password: 'Wrong-Passw0rd!' };
    // Failures 1-3: A, B, A. The fourth, on B, needs the bot check (three failures in a row, whatever instance counted them).
    for (let i = 0; i < 3; i += 1) expect((await attacker.post(alternate(i), '/ws/account/login', wrong)).body.resultCode).toBe('AUTHENTICATION_FAILURE');
    expect((await attacker.post(b, '/ws/account/login', wrong)).body).toMatchObject({ resultCode: 'HUMAN_VERIFICATION_FAILED', recaptchaRequired: true });

    // A challenge issued by A, solved, spent on B (accepted: the password is then checked, and wrong) ...
    const token = await attacker.botToken(a, 'login');
    expect((await attacker.post(b, '/ws/account/login', { ...wrong, recaptchaToken: token })).body).toMatchObject({ resultCode: 'AUTHENTICATION_FAILURE' });
    // ... is refused on A, and again on B, even with the right password.
    for (const instance of [a, b])
      expect((await attacker.post(instance, '/ws/account/login', { email: 'tech@demo.test', password: PASSWORD, recaptchaToken: token })).body).toMatchObject({
        resultCode: 'HUMAN_VERIFICATION_FAILED',
      });

    // Control: the owner solves a challenge of B and signs in on A.
    const owner = new Browser();
    const own = await owner.botToken(b, 'login');
    expect((await owner.post(a, '/ws/account/login', { email: 'tech@demo.test', password: PASSWORD, recaptchaToken: own })).body).toMatchObject({
      resultCode: 'MFA_REQUIRED',
      mfaType: 'TOTP',
    });
  }, 120_000);

  it('the hourly failure budget of an account and address holds across A and B: 20 failures, then 429 on both', async () => {
    const attacker = new Browser();
    const email = 'multi@demo.test';
    const answers: unknown[] = [];
    for (let i = 0; i < LIMITS.accountAddressFailuresPerHour; i += 1) {
      const at = alternate(i);
      // From the fourth failure the bot check is demanded: the attacker pays for each try.
      const check = i >= LIMITS.botCheckAfterFailures ? { recaptchaToken: await attacker.botToken(at, 'login') } : {};
      answers.push((await attacker.post(at, '/ws/account/login', { email, password: 'Wrong-Passw0rd!', ...check })).body.resultCode);
    }
    expect(answers).toEqual(Array(LIMITS.accountAddressFailuresPerHour).fill('AUTHENTICATION_FAILURE'));
    // Ten failures were counted by each instance; together the budget is spent: even the right password, with a solved check, gets 429 on both.
    for (const at of [b, a]) {
      const res = await attacker.post(at, '/ws/account/login', { email, password: PASSWORD, recaptchaToken: await attacker.botToken(at, 'login') });
      expect(res.status).toBe(429);
    }
    // Control: the owner, from another address, with the bot check the account now needs, signs in.
    const owner = new Browser();
    expect((await owner.post(b, '/ws/account/login', { email, password: PASSWORD, recaptchaToken: await owner.botToken(a, 'login') })).body).toMatchObject({
      resultCode: 'MFA_REQUIRED',
    });
  }, 180_000);

  it("the hourly mail budget of an account is shared: requests alternated over A and B send 5 emails, all with the owner's one live link", async () => {
    const email = 'setup-nophone@demo.test';
    const answers: number[] = [];
    const sent: number[] = [];
    for (let i = 0; i < 10; i += 1) {
      // Each request from its own address (none needs the bot check), alternately on A and B.
      const res = await new Browser().post(alternate(i), '/ws/account/reset-password-init', { email, verifyBy: 'EMAIL' });
      answers.push(res.status);
      sent.push((await outbox(alternate(i + 1), email)).length);
    }
    // The first five went out (three through A, two through B); both instances then refuse.
    expect(sent).toEqual([1, 2, 3, 4, 5, 5, 5, 5, 5, 5]);
    expect(answers).toEqual([200, 200, 200, 200, 200, 429, 429, 429, 429, 429]);
    const mails = await outbox(a, email);
    expect(new Set(mails.map((m) => m.link)).size).toBe(1);
    // Control: the owner's link works.
    expect(
      (await new Browser().post(b, '/ws/account/reset-password-commit', { verificationCode: lastPart(mails[0]!.link), password: 'N3w-Owner-Pass' })).body,
    ).toMatchObject({
      resultCode: 'SETUP_MFA',
    });
  }, 120_000);

  it('a Duo approval given on A reaches the visitor waiting (event stream) on B', async () => {
    const visitor = new Browser();
    const mfa = (await visitor.post(a, '/ws/account/login', { email: 'duo@demo.test', password: PASSWORD })).body;
    expect(mfa).toMatchObject({ resultCode: 'MFA_REQUIRED', mfaType: 'DUO' });
    const channel = String(mfa.duoChannelId);
    const stream = await fetch(`${b.url}/ws/account/duo-channel/${encodeURIComponent(channel)}`, { headers: visitor.headers() });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = stream.body!.getReader();
    try {
      const approved = await new Browser().call(
        a,
        'POST',
        '/dev/duo',
        `channel=${encodeURIComponent(channel)}&decision=approve`,
        'application/x-www-form-urlencoded',
      );
      expect(approved.status).toBeLessThan(400);
      let text = '';
      const deadline = Date.now() + 20_000;
      while (!/data: .*\n\n/.test(text) && Date.now() < deadline) {
        const chunk = await reader.read();
        if (chunk.done) break;
        text += new TextDecoder().decode(chunk.value);
      }
      const code = (JSON.parse(/data: (.*)\n\n/.exec(text)?.[1] ?? '{}') as { mfaCode?: string }).mfaCode;
      expect(code, text).toMatch(/^\d{6}$/);
      // Control: the code from the stream signs the visitor in on B; the channel then ends, and with it the stream.
      expect((await visitor.post(b, '/ws/account/mfa-login', { loginToken: mfa.loginToken, code })).body).toMatchObject({ resultCode: 'SUCCESS' });
      for (;;) if ((await reader.read()).done) break;
      expect((await visitor.get(a, '/ws/account/session')).status).toBe(200);
    } finally {
      await reader.cancel().catch(() => undefined);
    }
  }, 120_000);

  /**
   * Every limit is decided in a database transaction (SQLite BEGIN IMMEDIATE, PostgreSQL SERIALIZABLE,
   * retried on a serialization failure): sign-ins of one account arriving together on both instances
   * must all be answered, none with a 5xx. Each attempt is counted before its password is checked
   * (services/attempts.ts), so attempts in flight together count as failures until they succeed: past
   * the third the bot check is demanded, by design (a burst of guesses pays like a sequence). Once every
   * answer is in, each success has cleared its count: nothing is left behind by the race.
   */
  it('sign-ins of one account arriving together on A and B are all answered, none with a 5xx, and leave no count behind', async () => {
    const visitors = Array.from({ length: 24 }, () => new Browser());
    const answers = await Promise.all(
      visitors.map((visitor, i) =>
        visitor
          .post(alternate(i), '/ws/account/login', { email: 'nomfa@demo.test', password: PASSWORD })
          .then((r) => `${r.status} ${String(r.body.resultCode ?? r.body.error)}`),
      ),
    );
    for (const answer of answers) expect(answer).toMatch(/^200 (SUCCESS|HUMAN_VERIFICATION_FAILED)$/);
    const signedIn = visitors.filter((_, i) => answers[i] === '200 SUCCESS');
    expect(signedIn.length).toBeGreaterThanOrEqual(LIMITS.botCheckAfterFailures);
    // Every session opened by one instance is known to the other.
    const known = await Promise.all(signedIn.map((visitor) => visitor.get(visitors.indexOf(visitor) % 2 === 0 ? b : a, '/ws/account/session')));
    expect(known.map((r) => r.status)).toEqual(signedIn.map(() => 200));
    // Control: the account owes no bot check now: a plain sign-in succeeds on either instance.
    for (const at of [a, b])
      expect((await new Browser().post(at, '/ws/account/login', { email: 'nomfa@demo.test', password: PASSWORD })).body).toMatchObject({
        resultCode: 'SUCCESS',
      });
  }, 120_000);

  it('behind one port (a round-robin proxy), a sign-in with a second factor completes with each request on the other instance', async () => {
    const proxy = await startRoundRobinProxy([a, b].map((i) => ({ host: '127.0.0.1', port: Number(new URL(i.url).port) })));
    const front = { name: 'proxy', url: `http://127.0.0.1:${proxy.port}` };
    try {
      const visitor = new Browser();
      const mfa = (await visitor.post(front, '/ws/account/login', { email: 'multi@demo.test', password: PASSWORD })).body; // A
      expect(mfa).toMatchObject({ resultCode: 'MFA_REQUIRED', mfaType: 'TOTP' });
      expect(
        (await visitor.post(front, '/ws/account/mfa-login', { loginToken: mfa.loginToken, code: await totp(DEMO_TOTP_SECRET, Date.now()) })).body,
      ).toMatchObject({
        resultCode: 'SUCCESS',
      }); // B
      expect((await visitor.get(front, '/ws/account/session')).body).toMatchObject({ user: { email: 'multi@demo.test' } }); // A
      expect((await visitor.get(front, '/ws/account/session')).status).toBe(200); // B
      expect(proxy.connections).toEqual([2, 2]);
    } finally {
      await proxy.close();
    }
  }, 60_000);

  it(
    'kill -9 of A during sign-ins loses no session or enrolment that A acknowledged',
    async () => {
      // Sign-ins hammer A from several browsers; a set-up of a second factor completes on A meanwhile.
      const acknowledged: Browser[] = [];
      let killed = false;
      let refusedAfterKill = 0;
      const signer = async () => {
        while (!killed) {
          const visitor = new Browser();
          try {
            const res = await visitor.post(a, '/ws/account/login', { email: 'nomfa@demo.test', password: PASSWORD, staySignedIn: true });
            if (res.body.resultCode === 'SUCCESS' && visitor.cookies.has('fd_session')) acknowledged.push(visitor);
          } catch {
            refusedAfterKill += 1; // the connection died with A: nothing was acknowledged
          }
        }
      };
      const load = Array.from({ length: 4 }, signer);

      const owner = new Browser();
      const setup = (await owner.post(a, '/ws/account/login', { email: 'setup@demo.test', password: PASSWORD })).body;
      expect(setup).toMatchObject({ resultCode: 'SETUP_MFA' });
      const { key } = (await owner.post(a, '/ws/account/config-totp', { userToken: setup.userToken })).body as { key: string };
      const now = Date.now();
      const enrolled = await owner.post(a, '/ws/account/login/totp', {
        key,
        code: await totp(key, now - 30_000),
        secondaryCode: await totp(key, now),
        userToken: setup.userToken,
      });
      expect(enrolled.body).toMatchObject({ resultCode: 'SUCCESS' });

      const until = Date.now() + 60_000;
      while (acknowledged.length < 8 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50));
      await killHard(a);
      killed = true;
      await Promise.all(load);
      expect(acknowledged.length).toBeGreaterThanOrEqual(8);
      expect(refusedAfterKill).toBeGreaterThan(0); // the kill did land during sign-ins

      const check = async (instance: Instance) => {
        const lost = [];
        for (const visitor of acknowledged) if ((await visitor.get(instance, '/ws/account/session')).status !== 200) lost.push(visitor.address);
        expect(lost, `sessions acknowledged by A, lost on ${instance.name}`).toEqual([]);
        expect((await owner.get(instance, '/ws/account/session')).status).toBe(200);
        // The second factor set up on A is there: the next sign-in asks for it.
        expect((await new Browser().post(instance, '/ws/account/login', { email: 'setup@demo.test', password: PASSWORD })).body).toMatchObject({
          resultCode: 'MFA_REQUIRED',
          mfaType: 'TOTP',
        });
        // And its notice went with it; the set-up token was spent with it.
        expect((await outbox(instance, 'setup@demo.test')).map((m) => m.subject)).toContain('A sign-in method was added to your Front Door account');
        expect((await owner.post(instance, '/ws/account/config-totp', { userToken: setup.userToken })).body).toEqual({ resultCode: 'INVALID_USER_TOKEN' });
      };
      await check(b);
      console.log(`${engine.name}: kill -9 of A after ${acknowledged.length} acknowledged sign-ins (${refusedAfterKill} cut off): none lost on B`);
      // A again, on the same database: the state is intact there too.
      a = await startInstance('A (restarted)', env);
      await check(a);
      // Control: a sign-in with the second factor works on the restarted A.
      const mfa = (await owner.post(a, '/ws/account/login', { email: 'tech@demo.test', password: PASSWORD })).body;
      expect(mfa).toMatchObject({ resultCode: 'MFA_REQUIRED' });
      expect((await owner.post(a, '/ws/account/mfa-login', { loginToken: mfa.loginToken, code: await totp(DEMO_TOTP_SECRET, Date.now()) })).body).toMatchObject(
        {
          resultCode: 'SUCCESS',
        },
      );
    },
    4 * 60_000,
  );
}
