/**
 * Email over SMTP, delivered to a real SMTP listener started here (smtp-server): the queue's worker
 * sends through nodemailer, the listener parses what arrived (mailparser): headers, both parts, the
 * language, the brand and the link. Also credentials, smtps:// with a private CA, and the relay's
 * refusals (5xx permanent, 4xx retried).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generate } from 'selfsigned';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { checkDelivery } from '../../../server/delivery/config';
import { composeEmail, type Brand } from '../../../server/delivery/email/compose';
import { messageIdFor, smtpSender } from '../../../server/delivery/email/smtp';
import { deliveryState, enqueue, DEFAULT_POLICY } from '../../../server/delivery/queue';
import { createDeliveryWorker } from '../../../server/delivery/worker';
import { smtpError, startSmtpListener, type SmtpListener } from './smtp-listener';
import { openRunDatabase, type RunDatabase } from '../test-database';

const T = Date.UTC(2026, 10, 25, 14, 5);
const acme: Brand = { name: 'Acme IT', publicUrl: 'https://signin.acme.test', logoUrl: 'https://signin.acme.test/branding/assets/acme-logo.svg' };
const policy = { delivering: new Set(['email', 'sms'] as const), retentionMs: DEFAULT_POLICY.retentionMs };
const FROM = 'Acme sign-in <no-reply@acme.test>';

let db: RunDatabase;
beforeAll(async () => {
  db = await openRunDatabase();
});
afterAll(async () => {
  await db.dispose();
});

function settingsFor(listener: SmtpListener, env: Record<string, string> = {}) {
  const problems: string[] = [];
  const settings = checkDelivery({ SMTP_URL: listener.url, MAIL_FROM: FROM, ...env }, problems);
  expect(problems).toEqual([]);
  if (!settings.smtp) throw new Error('no SMTP settings');
  return settings.smtp;
}

describe('email over SMTP to a real listener', () => {
  let listener: SmtpListener;
  beforeAll(async () => {
    listener = await startSmtpListener({ user: 'relay-user', password: 's3cret pass' });
  });
  afterAll(async () => listener.close());
  afterEach(async () => {
    listener.received.length = 0;
    listener.answer = () => undefined;
    await db.wipe();
  });

  it('delivers a German reset email in both parts, branded, with the link, the sender and a stable Message-ID', async () => {
    const id = await enqueue(
      db,
      composeEmail({ kind: 'reset', link: 'https://signin.acme.test/resetPassword/abc123', to: 'dana@acme.test', language: 'de-de', brand: acme }),
      policy,
      T,
    );
    const smtp = settingsFor(listener, { SMTP_USER: 'relay-user', SMTP_PASSWORD: 's3cret pass' });
    const worker = createDeliveryWorker({ data: db, senders: { email: smtpSender(smtp) }, policy: { keepContent: true } });
    expect(await worker.runOnce()).toBe(1);
    await worker.stop();
    expect(listener.received).toHaveLength(1);
    const [got] = listener.received;
    const mail = got!.mail;
    expect(got!.user).toBe('relay-user');
    expect(got!.to).toEqual(['dana@acme.test']);
    expect(mail.from?.value).toEqual([{ name: 'Acme sign-in', address: 'no-reply@acme.test' }]);
    expect(mail.subject).toBe('Setzen Sie Ihr Acme IT-Passwort zurück');
    expect(mail.headers.get('content-language')).toBe('de-de');
    expect(mail.messageId).toBe(messageIdFor({ id, createdAt: T }, FROM));
    expect(mail.text).toContain('https://signin.acme.test/resetPassword/abc123');
    expect(mail.text).toContain('1 Stunde');
    expect(mail.html).toContain('href="https://signin.acme.test/resetPassword/abc123"');
    expect(mail.html).toContain('<html lang="de-DE" dir="ltr">');
    expect(mail.html).toContain('src="https://signin.acme.test/branding/assets/acme-logo.svg" alt="Acme IT"');
    const state = await deliveryState(db, id);
    expect(state).toMatchObject({ status: 'sent', provider: 'smtp', providerId: mail.messageId });
    expect(state?.lastResult).toMatch(/^250 .*queued as m1/);
  });

  it('writes Arabic and Hebrew right to left, and falls back to en-us for an unknown language', async () => {
    for (const [language, to] of [
      ['ar', 'ar@acme.test'],
      ['he-il', 'he@acme.test'],
      ['xx-yy', 'xx@acme.test'],
    ] as const)
      await enqueue(
        db,
        composeEmail({ kind: 'activation', link: `https://signin.acme.test/activate/division/${language}`, to, language, brand: acme }),
        policy,
        T,
      );
    const worker = createDeliveryWorker({
      data: db,
      senders: { email: smtpSender(settingsFor(listener, { SMTP_USER: 'relay-user', SMTP_PASSWORD: 's3cret pass' })) },
    });
    await worker.runOnce();
    await worker.stop();
    const byTo = Object.fromEntries(listener.received.map((r) => [r.to[0], r.mail]));
    expect(byTo['ar@acme.test']?.html).toContain('<html lang="ar" dir="rtl">');
    expect(byTo['ar@acme.test']?.subject).toMatch(/[\u0600-\u06FF]/);
    expect(byTo['he@acme.test']?.html).toContain('<html lang="he" dir="rtl">');
    expect(byTo['he@acme.test']?.subject).toMatch(/[\u0590-\u05FF]/);
    expect(byTo['xx@acme.test']?.subject).toBe('Activate your Acme IT account');
    expect(byTo['xx@acme.test']?.html).toContain('dir="ltr"');
  });

  it('retries a temporary refusal (451) and gives up on a permanent one (550)', async () => {
    const later = await enqueue(
      db,
      composeEmail({ kind: 'reset', link: 'https://x.test/r/1', to: 'busy@acme.test', language: 'en-us', brand: acme }),
      policy,
      T,
    );
    const never = await enqueue(
      db,
      composeEmail({ kind: 'reset', link: 'https://x.test/r/2', to: 'gone@acme.test', language: 'en-us', brand: acme }),
      policy,
      T,
    );
    listener.answer = (_raw, rcpt) => (rcpt.includes('busy@acme.test') ? smtpError(451, 'Try again later') : smtpError(550, 'No such user'));
    const worker = createDeliveryWorker({
      data: db,
      senders: { email: smtpSender(settingsFor(listener, { SMTP_USER: 'relay-user', SMTP_PASSWORD: 's3cret pass' })) },
    });
    await worker.runOnce();
    await worker.stop();
    expect(await deliveryState(db, later)).toMatchObject({ status: 'pending', attempts: 1, lastResult: expect.stringMatching(/^451: .*Try again later/) });
    expect(await deliveryState(db, never)).toMatchObject({ status: 'failed', attempts: 1, lastResult: expect.stringMatching(/^550: .*No such user/) });
  });

  it('keeps a message queued when the relay refuses the credentials (a fix of SMTP_PASSWORD then delivers it)', async () => {
    const id = await enqueue(db, composeEmail({ kind: 'reset', link: 'https://x.test/r/1', to: 'a@acme.test', language: 'en-us', brand: acme }), policy, T);
    const wrong = createDeliveryWorker({
      data: db,
      senders: { email: smtpSender(settingsFor(listener, { SMTP_USER: 'relay-user', SMTP_PASSWORD: 'wrong' })) },
    });
    await wrong.runOnce();
    await wrong.stop();
    expect(await deliveryState(db, id)).toMatchObject({ status: 'pending', lastResult: expect.stringMatching(/^535: /) });
    expect(listener.received).toHaveLength(0);
    await db.run('UPDATE deliveries SET next_attempt_at = 0');
    const right = createDeliveryWorker({
      data: db,
      senders: { email: smtpSender(settingsFor(listener, { SMTP_USER: 'relay-user', SMTP_PASSWORD: 's3cret pass' })) },
    });
    await right.runOnce();
    await right.stop();
    expect(await deliveryState(db, id)).toMatchObject({ status: 'sent', attempts: 2 });
  });
});

describe('smtps:// with a private CA (SMTP_CA_FILE)', () => {
  it('delivers over TLS when the CA is given, and keeps the message queued when the certificate is not trusted', async () => {
    const pems = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
      keySize: 2048,
      extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
    });
    const listener = await startSmtpListener({ tls: { key: pems.private, cert: pems.cert } });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-smtp-ca-'));
    try {
      const caFile = path.join(dir, 'ca.pem');
      fs.writeFileSync(caFile, pems.cert);
      const untrusted = await enqueue(
        db,
        composeEmail({ kind: 'reset', link: 'https://x.test/r/1', to: 'a@acme.test', language: 'en-us', brand: acme }),
        policy,
        T,
      );
      const plain = createDeliveryWorker({ data: db, senders: { email: smtpSender(settingsFor(listener)) } });
      await plain.runOnce();
      await plain.stop();
      expect(await deliveryState(db, untrusted)).toMatchObject({ status: 'pending', lastResult: expect.stringMatching(/certificate/i) });
      await db.run('UPDATE deliveries SET next_attempt_at = 0');
      const trusted = createDeliveryWorker({ data: db, senders: { email: smtpSender(settingsFor(listener, { SMTP_CA_FILE: caFile })) } });
      await trusted.runOnce();
      await trusted.stop();
      expect(await deliveryState(db, untrusted)).toMatchObject({ status: 'sent' });
      expect(listener.received[0]?.mail.subject).toBe('Reset your Acme IT password');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
      await listener.close();
      await db.wipe();
    }
  });
});
