/**
 * A text the SMS provider refuses gives the visitor a clear answer, not silence: the request that
 * sent the code waits briefly for the provider's first answer (services/texts.ts textRefusal) and a
 * refusal becomes TEXT_NOT_DELIVERED with its meaning (textFailure), or, at sign-in, MFA_REQUIRED with
 * sendSms false. Through the Twilio double (twilio-double.ts); the controls show an accepted text
 * still answers SUCCESS, and a temporary refusal (the queue retries) is no false alarm.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectContract, makeApp, PASSWORD, post } from '../helpers';
import { startTwilioDouble, TWILIO_FROM, TWILIO_SID, TWILIO_TOKEN, type TwilioDouble } from './twilio-double';

const SMS_PHONE = '+14155550123'; // sms@demo.test
const OPTED_OUT = { status: 400, code: 21610, message: 'Attempt to send to unsubscribed recipient' };
const INVALID = { status: 400, code: 21211, message: "The 'To' number is not a valid phone number." };
const OUTAGE = { status: 503, code: 20503, message: 'Service unavailable' };

let twilio: TwilioDouble;
let app: FastifyInstance;
beforeAll(async () => {
  twilio = await startTwilioDouble();
});
afterAll(async () => {
  await twilio.close();
});
beforeEach(async () => {
  twilio.refuse = () => undefined;
  app = await makeApp({
    delivery: { sms: { provider: 'twilio', accountSid: TWILIO_SID, authToken: TWILIO_TOKEN, from: TWILIO_FROM, apiBase: twilio.url }, maxAttempts: 3 },
  });
});
afterEach(async () => {
  await app.close();
  expect(twilio.problems).toEqual([]);
});

async function op(url: string, payload: unknown, operation: string) {
  const res = await post(app, url, payload, { remoteAddress: `198.51.100.${Math.floor(Math.random() * 200) + 1}` });
  expect(res.statusCode, res.body).toBe(200);
  expectContract(operation, res.json());
  return res.json() as Record<string, unknown>;
}
const resetByText = () => op('/ws/account/reset-password-init', { email: 'sms@demo.test', verifyBy: 'TEXT', phoneDigits: '0123' }, 'resetPasswordInit');
const signIn = () => op('/ws/account/login', { email: 'sms@demo.test', password: PASSWORD }, 'login');

describe('a text the provider refuses', () => {
  it('reset by text: TEXT_NOT_DELIVERED with what it means; control: an accepted text is SUCCESS', async () => {
    twilio.refuse = (to) => (to === SMS_PHONE ? OPTED_OUT : undefined);
    expect(await resetByText()).toEqual({ resultCode: 'TEXT_NOT_DELIVERED', textFailure: 'NUMBER_REFUSES_TEXTS' });
    expect(twilio.refused.at(-1)?.To).toBe(SMS_PHONE);
    twilio.refuse = () => undefined;
    expect(await resetByText()).toEqual({ resultCode: 'SUCCESS' });
    expect(twilio.texts.at(-1)?.To).toBe(SMS_PHONE);
  });

  it('an invalid number says so (INVALID_NUMBER)', async () => {
    twilio.refuse = () => INVALID;
    expect(await resetByText()).toEqual({ resultCode: 'TEXT_NOT_DELIVERED', textFailure: 'INVALID_NUMBER' });
  });

  it('sign-in: MFA_REQUIRED without sendSms and with the reason; Resend code (switch-mfa) answers TEXT_NOT_DELIVERED', async () => {
    twilio.refuse = () => OPTED_OUT;
    const accepted = twilio.texts.length;
    const login = await signIn();
    expect(login).toMatchObject({ resultCode: 'MFA_REQUIRED', mfaType: 'SMSOTP', sendSms: false, textFailure: 'NUMBER_REFUSES_TEXTS' });
    const resend = await op('/ws/account/switch-mfa', { loginToken: login.loginToken, mfaType: 'SMSOTP' }, 'switchMfa');
    expect(resend).toEqual({ resultCode: 'TEXT_NOT_DELIVERED', textFailure: 'NUMBER_REFUSES_TEXTS' });
    // Control: once the number takes texts again, Resend code sends one.
    twilio.refuse = () => undefined;
    expect(await op('/ws/account/switch-mfa', { loginToken: login.loginToken, mfaType: 'SMSOTP' }, 'switchMfa')).toMatchObject({
      resultCode: 'SUCCESS',
      sendSms: true,
    });
    expect(twilio.texts).toHaveLength(accepted + 1);
  });

  it('a temporary refusal (503) is retried by the queue: the visitor is told the code was sent', async () => {
    twilio.refuse = () => OUTAGE;
    expect(await signIn()).toMatchObject({ resultCode: 'MFA_REQUIRED', sendSms: true });
    expect(await signIn()).not.toHaveProperty('textFailure');
  });
});
