/**
 * A local double of Twilio Programmable Messaging that checks each request as Twilio documents it:
 * POST /2010-04-01/Accounts/{AccountSid}/Messages.json, HTTP Basic auth (Account SID : Auth Token),
 * form-encoded To, From and Body; it answers 201 with the Message resource, or Twilio's error JSON
 * {code, message, more_info, status}. `refuse` scripts a refusal per recipient (an invalid number,
 * an opted-out one, a provider outage).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export const TWILIO_SID = `AC${'0123456789abcdef'.repeat(2)}`;
export const TWILIO_TOKEN = 'twilio-auth-token-of-the-test';
export const TWILIO_FROM = '+14155550100';

export interface TwilioRefusal {
  status: number;
  code: number;
  message: string;
}

export interface TwilioDouble {
  url: string;
  /** The forms of the texts it accepted. */
  texts: Array<Record<string, string>>;
  /** Requests that broke Twilio's documented shape (a test expects none). */
  problems: string[];
  /** Forms it refused as scripted by `refuse`. */
  refused: Array<Record<string, string>>;
  /** Scripts the answer per recipient: a refusal, or undefined to accept. */
  refuse: (to: string) => TwilioRefusal | undefined;
  close(): Promise<void>;
}

export async function startTwilioDouble(): Promise<TwilioDouble> {
  const double: Omit<TwilioDouble, 'url' | 'close'> = { texts: [], problems: [], refused: [], refuse: () => undefined };
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const answer = (status: number, code: number, message: string) =>
        res
          .writeHead(status, { 'content-type': 'application/json' })
          .end(JSON.stringify({ code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status }));
      const wrong = (status: number, code: number, message: string) => {
        double.problems.push(message);
        answer(status, code, message);
      };
      if (req.method !== 'POST' || req.url !== `/2010-04-01/Accounts/${TWILIO_SID}/Messages.json`) return wrong(404, 20404, `${req.method} ${req.url}`);
      if (req.headers.authorization !== `Basic ${Buffer.from(`${TWILIO_SID}:${TWILIO_TOKEN}`).toString('base64')}`) return wrong(401, 20003, 'Authenticate');
      if (!String(req.headers['content-type']).startsWith('application/x-www-form-urlencoded')) return wrong(400, 21000, 'not a form');
      const form = Object.fromEntries(new URLSearchParams(body));
      if (!/^\+[1-9]\d{6,14}$/.test(form.To ?? '') || form.From !== TWILIO_FROM || !form.Body) return wrong(400, 21211, `fields ${JSON.stringify(form)}`);
      const refusal = double.refuse(form.To!);
      if (refusal) {
        double.refused.push(form);
        return answer(refusal.status, refusal.code, refusal.message);
      }
      double.texts.push(form);
      const sid = `SM${String(double.texts.length).padStart(32, '0')}`;
      res.writeHead(201, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          sid,
          account_sid: TWILIO_SID,
          to: form.To,
          from: form.From,
          body: form.Body,
          status: 'queued',
          uri: `/2010-04-01/Accounts/${TWILIO_SID}/Messages/${sid}.json`,
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return Object.assign(double, {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}
