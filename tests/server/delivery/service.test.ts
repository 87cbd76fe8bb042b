/**
 * The delivery service as phase 2 wires it (server/delivery/index.ts): a reset email queued in the
 * caller's transaction is sent by the worker and stays in the demo outbox with its link; a channel
 * without a provider is held (shown, never sent); outside demo mode the sent content is scrubbed.
 * And the start-up check names delivery and Duo mistakes among the other settings.
 */
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { checkEnvironment } from '../../../server/config';
import { createDelivery } from '../../../server/delivery';
import type { ClaimedDelivery, Sender } from '../../../server/delivery/types';
import { openRunDatabase, type RunDatabase } from '../test-database';

let db: RunDatabase;
beforeAll(async () => {
  db = await openRunDatabase();
});
afterAll(async () => db.dispose());
beforeEach(async () => db.wipe());

const brand = { name: 'Front Door', publicUrl: 'http://localhost:8080' };

function fakeEmail() {
  const sent: ClaimedDelivery[] = [];
  const sender: Sender = { channel: 'email', name: 'fake', send: async (m) => (sent.push(m), { ok: true, providerId: `id${m.id}`, answer: '250 ok' }) };
  return { sender, sent };
}

it('demo mode: sends the email, keeps it in the outbox, holds texts without a provider', async () => {
  const email = fakeEmail();
  const delivery = createDelivery({ data: db, settings: { maxAttempts: 3 }, demo: true, senders: { email: email.sender } });
  await db.tx(async (t) => {
    await delivery.email(t, { kind: 'reset', link: 'http://localhost:8080/resetPassword/abc', to: 'tech@demo.test', language: 'en-us', brand });
    await delivery.text(t, { kind: 'reset-code', code: '123456', to: '+14155550123', language: 'en-us', brand });
  });
  await delivery.worker.runOnce();
  await delivery.stop();
  expect(email.sent.map((m) => m.to)).toEqual(['tech@demo.test']);
  const outbox = await delivery.outbox(db);
  expect(outbox).toEqual([
    expect.objectContaining({
      channel: 'sms',
      to: '+14155550123',
      code: '123456',
      text: 'Front Door: your password reset security code is 123456. It expires in 10 minutes.',
    }),
    expect.objectContaining({
      channel: 'email',
      to: 'tech@demo.test',
      subject: 'Reset your Front Door password',
      link: 'http://localhost:8080/resetPassword/abc',
    }),
  ]);
  expect(await db.all('SELECT channel, status FROM deliveries ORDER BY id')).toEqual([
    { channel: 'email', status: 'sent' },
    { channel: 'sms', status: 'held' },
  ]);
});

it('production: the link and code do not stay in the database once sent', async () => {
  const email = fakeEmail();
  const delivery = createDelivery({ data: db, settings: { maxAttempts: 3 }, demo: false, senders: { email: email.sender } });
  await db.tx((t) => delivery.email(t, { kind: 'activation', link: 'https://s.test/activate/division/k', to: 'a@b.test', language: 'fr-fr', brand }));
  await delivery.worker.runOnce();
  await delivery.stop();
  expect(email.sent[0]?.subject).toBe('Activez votre compte Front Door');
  expect(await db.get('SELECT text, html, link, status FROM deliveries')).toEqual({ text: '', html: null, link: null, status: 'sent' });
});

it('the start-up check reports delivery and Duo mistakes with the others, one line each', () => {
  const { settings, problems } = checkEnvironment({ DEV_TOOLS: '1', SMTP_URL: 'smtp://relay.test:587', SMS_PROVIDER: 'twilio', DUO_CLIENT_ID: 'x' }, []);
  expect(problems).toEqual([
    expect.stringMatching(/^MAIL_FROM is required with SMTP_URL/),
    expect.stringMatching(/^TWILIO_ACCOUNT_SID must be/),
    expect.stringMatching(/^TWILIO_AUTH_TOKEN is required/),
    expect.stringMatching(/^SMS_PROVIDER=twilio needs TWILIO_FROM/),
    expect.stringMatching(/^Duo needs DUO_CLIENT_ID, DUO_CLIENT_SECRET and DUO_API_HOST together/),
  ]);
  const ok = checkEnvironment({ DEV_TOOLS: '1', SMTP_URL: 'smtp://relay.test:587', MAIL_FROM: 'a@b.test' }, []);
  expect(ok.problems).toEqual([]);
  expect(ok.settings.delivery.smtp).toMatchObject({ url: 'smtp://relay.test:587', from: 'a@b.test' });
  expect(settings.duo).toBeUndefined();
});
