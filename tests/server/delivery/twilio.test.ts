/**
 * Texts through Twilio Programmable Messaging, against a local HTTP double that checks each request
 * the way Twilio documents it: POST /2010-04-01/Accounts/{AccountSid}/Messages.json, HTTP Basic auth
 * (Account SID : Auth Token), application/x-www-form-urlencoded with To, From or MessagingServiceSid,
 * and Body; it answers 201 with a Message resource, or Twilio's error JSON {code, message, more_info, status}.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { checkDelivery } from '../../../server/delivery/config';
import { composeText } from '../../../server/delivery/email/compose';
import { deliveryState, enqueue, DEFAULT_POLICY } from '../../../server/delivery/queue';
import { textFailure, twilioSender } from '../../../server/delivery/sms/twilio';
import { createDeliveryWorker } from '../../../server/delivery/worker';
import { openRunDatabase, type RunDatabase } from '../test-database';

const SID = `AC${'0123456789abcdef'.repeat(2)}`;
const TOKEN = 'twilio-auth-token-of-the-test';
const FROM = '+14155550100';
const policy = { delivering: new Set(['email', 'sms'] as const), retentionMs: DEFAULT_POLICY.retentionMs };

interface Seen {
  problems: string[];
  fields: Record<string, string>;
}

/** Twilio's Messages endpoint as documented; `reply` scripts the answer per recipient. */
function startTwilioDouble() {
  const seen: Seen[] = [];
  let reply: (to: string) => { status: number; body: unknown } = () => ({ status: 201, body: {} });
  let n = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const problems: string[] = [];
      const expectedPath = `/2010-04-01/Accounts/${SID}/Messages.json`;
      if (req.method !== 'POST') problems.push(`method ${req.method}`);
      if (req.url !== expectedPath) problems.push(`path ${req.url}`);
      const auth = req.headers.authorization ?? '';
      const [user, pass] = Buffer.from(auth.replace(/^Basic /, ''), 'base64')
        .toString('utf8')
        .split(':');
      if (!auth.startsWith('Basic ') || user !== SID) problems.push('basic auth user is not the Account SID');
      if (!(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) problems.push(`content type ${req.headers['content-type']}`);
      const fields = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
      if (!fields.To || !fields.Body) problems.push('To and Body are required');
      if (!fields.From === !fields.MessagingServiceSid) problems.push('exactly one of From and MessagingServiceSid');
      for (const key of Object.keys(fields)) if (!['To', 'From', 'MessagingServiceSid', 'Body'].includes(key)) problems.push(`unexpected field ${key}`);
      seen.push({ problems, fields });
      res.setHeader('Content-Type', 'application/json');
      if (pass !== TOKEN) {
        res.statusCode = 401;
        return res.end(JSON.stringify({ code: 20003, message: 'Authenticate', more_info: 'https://www.twilio.com/docs/errors/20003', status: 401 }));
      }
      if (problems.length) {
        res.statusCode = 400;
        return res.end(JSON.stringify({ code: 21604, message: problems.join('; '), more_info: 'https://www.twilio.com/docs/errors/21604', status: 400 }));
      }
      const answer = reply(fields.To as string);
      res.statusCode = answer.status;
      n += 1;
      res.end(
        JSON.stringify(
          answer.status === 201
            ? {
                sid: `SM${String(n).padStart(32, '0')}`,
                account_sid: SID,
                to: fields.To,
                from: fields.From ?? null,
                messaging_service_sid: fields.MessagingServiceSid ?? null,
                body: fields.Body,
                status: 'queued',
                error_code: null,
                error_message: null,
                api_version: '2010-04-01',
                uri: `/2010-04-01/Accounts/${SID}/Messages/SM${n}.json`,
              }
            : answer.body,
        ),
      );
    });
  });
  return {
    seen,
    set reply(fn: typeof reply) {
      reply = fn;
    },
    async listen(): Promise<string> {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let db: RunDatabase;
const twilio = startTwilioDouble();
let base = '';
beforeAll(async () => {
  db = await openRunDatabase();
  base = await twilio.listen();
});
afterAll(async () => {
  await twilio.close();
  await db.dispose();
});
afterEach(async () => {
  twilio.seen.length = 0;
  twilio.reply = () => ({ status: 201, body: {} });
  await db.wipe();
});

function settings(env: Record<string, string> = {}) {
  const problems: string[] = [];
  const s = checkDelivery(
    { SMS_PROVIDER: 'twilio', TWILIO_ACCOUNT_SID: SID, TWILIO_AUTH_TOKEN: TOKEN, TWILIO_FROM: FROM, TWILIO_API_BASE: base, ...env },
    problems,
  );
  expect(problems).toEqual([]);
  if (!s.sms) throw new Error('no SMS settings');
  return s.sms;
}

async function sendOne(to: string, env: Record<string, string> = {}) {
  const id = await enqueue(
    db,
    composeText({ kind: 'mfa-code', code: '123456', to, language: 'fr-fr', brand: { name: 'Acme', publicUrl: 'https://a.test' } }),
    policy,
    Date.now(),
  );
  const worker = createDeliveryWorker({ data: db, senders: { sms: twilioSender(settings(env)) } });
  await worker.runOnce();
  await worker.stop();
  return id;
}

describe('Twilio Programmable Messaging', () => {
  it('posts the documented request and records the message sid', async () => {
    const id = await sendOne('+14155550123');
    expect(twilio.seen).toEqual([
      { problems: [], fields: { To: '+14155550123', From: FROM, Body: 'Acme : votre code de vérification est 123456. Ne le communiquez jamais.' } },
    ]);
    expect(await deliveryState(db, id)).toMatchObject({
      status: 'sent',
      provider: 'twilio',
      providerId: `SM${'1'.padStart(32, '0')}`,
      lastResult: '201 queued',
    });
  });

  it('sends through a Messaging Service instead of a From number', async () => {
    const service = `MG${'ab'.repeat(16)}`;
    await sendOne('+14155550123', { TWILIO_FROM: '', TWILIO_MESSAGING_SERVICE_SID: service });
    expect(twilio.seen[0]).toEqual({ problems: [], fields: { To: '+14155550123', MessagingServiceSid: service, Body: expect.stringContaining('123456') } });
  });

  it('refuses a number for good (21211) and says what it means for the visitor', async () => {
    twilio.reply = () => ({
      status: 400,
      body: { code: 21211, message: "The 'To' number +1555 is not a valid phone number.", more_info: 'https://www.twilio.com/docs/errors/21211', status: 400 },
    });
    const id = await sendOne('+1555');
    const state = await deliveryState(db, id);
    expect(state).toMatchObject({ status: 'failed', attempts: 1 });
    expect(state?.lastResult).toBe("21211: 400 The 'To' number +1555 is not a valid phone number. (https://www.twilio.com/docs/errors/21211)");
    expect(textFailure(state?.lastResult?.split(':')[0])).toBe('INVALID_NUMBER');
    expect(textFailure('20429')).toBe('PROVIDER_UNAVAILABLE');
  });

  it('retries a rate limit (429) and a server error (503), and wrong credentials (401)', async () => {
    twilio.reply = (to) =>
      to.endsWith('1')
        ? { status: 429, body: { code: 20429, message: 'Too Many Requests', status: 429 } }
        : { status: 503, body: { code: 20500, message: 'Service unavailable', status: 503 } };
    const limited = await sendOne('+14155550121');
    const down = await sendOne('+14155550122');
    const badToken = await sendOne('+14155550123', { TWILIO_AUTH_TOKEN: 'wrong' });
    expect(await deliveryState(db, limited)).toMatchObject({ status: 'pending', lastResult: '20429: 429 Too Many Requests' });
    expect(await deliveryState(db, down)).toMatchObject({ status: 'pending', lastResult: '20500: 503 Service unavailable' });
    expect(await deliveryState(db, badToken)).toMatchObject({ status: 'pending', lastResult: expect.stringMatching(/^20003: 401 Authenticate/) });
  });

  it('retries when Twilio cannot be reached', async () => {
    const id = await enqueue(
      db,
      composeText({ kind: 'reset-code', code: '654321', to: '+14155550123', language: 'en-us', brand: { name: 'Acme', publicUrl: 'https://a.test' } }),
      policy,
      Date.now(),
    );
    const worker = createDeliveryWorker({ data: db, senders: { sms: twilioSender({ ...settings(), apiBase: 'http://127.0.0.1:1' }) } });
    await worker.runOnce();
    await worker.stop();
    expect(await deliveryState(db, id)).toMatchObject({ status: 'pending', lastResult: expect.stringMatching(/^NETWORK: Twilio unreachable/) });
  });
});

describe('delivery settings', () => {
  const check = (env: Record<string, string>) => {
    const problems: string[] = [];
    checkDelivery(env, problems);
    return problems;
  };
  it('accepts nothing set (no delivery) and a complete configuration', () => {
    expect(check({})).toEqual([]);
    expect(
      check({
        SMTP_URL: 'smtps://u:p@relay.example.com:465',
        MAIL_FROM: 'no-reply@example.com',
        SMS_PROVIDER: 'twilio',
        TWILIO_ACCOUNT_SID: SID,
        TWILIO_AUTH_TOKEN: 't',
        TWILIO_FROM: '+14155550100',
      }),
    ).toEqual([]);
  });
  it('names each mistake in one line', () => {
    expect(check({ SMTP_URL: 'http://relay', MAIL_FROM: 'x' })).toEqual([
      'SMTP_URL must start with smtp:// (STARTTLS when the relay offers it) or smtps:// (TLS from the start), not "http://relay".',
    ]);
    expect(check({ SMTP_URL: 'smtp://u:secret@relay:587' })).toEqual([expect.stringMatching(/^MAIL_FROM is required with SMTP_URL/)]);
    expect(check({ SMTP_URL: 'smtp://relay:587', MAIL_FROM: 'a@b.c, d@e.f', SMTP_USER: 'u' })).toEqual([
      'SMTP_USER and SMTP_PASSWORD go together: set both, or put the credentials in SMTP_URL.',
      'MAIL_FROM must be one address, e.g. "Acme sign-in <no-reply@acme.example>", not "a@b.c, d@e.f".',
    ]);
    expect(check({ MAIL_FROM: 'a@b.c' })).toEqual([expect.stringMatching(/^MAIL_FROM is set but SMTP_URL is not/)]);
    expect(check({ SMS_PROVIDER: 'nexmo' })).toEqual(['SMS_PROVIDER must be one of twilio, not "nexmo".']);
    expect(check({ SMS_PROVIDER: 'twilio', TWILIO_ACCOUNT_SID: 'AC1', TWILIO_API_BASE: 'http://twilio.example.com' })).toEqual([
      expect.stringMatching(/^TWILIO_ACCOUNT_SID must be your Account SID/),
      expect.stringMatching(/^TWILIO_AUTH_TOKEN is required/),
      expect.stringMatching(/^SMS_PROVIDER=twilio needs TWILIO_FROM/),
      expect.stringMatching(/^TWILIO_API_BASE must be an https URL/),
    ]);
    expect(check({ TWILIO_AUTH_TOKEN: 'x' })).toEqual([expect.stringMatching(/^TWILIO_AUTH_TOKEN is set but SMS_PROVIDER is not/)]);
    expect(check({ DELIVERY_MAX_ATTEMPTS: '0' })).toEqual(['DELIVERY_MAX_ATTEMPTS must be a whole number from 1 to 50, not "0".']);
    expect(check({ DELIVERY_LEASE_SECONDS: '1.5' })).toEqual(['DELIVERY_LEASE_SECONDS must be a whole number from 1 to 3600, not "1.5".']);
    expect(checkDelivery({ DELIVERY_LEASE_SECONDS: '90' }, []).leaseMs).toBe(90_000);
  });
  it('never prints the SMTP password', () => {
    expect(check({ SMTP_URL: 'ftp://u:hunter2@relay', MAIL_FROM: 'a@b.c' }).join()).not.toContain('hunter2');
  });
});
