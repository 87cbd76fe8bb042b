import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectContract, login, makeApp } from './helpers';

let app: FastifyInstance;
beforeAll(async () => {
  app = await makeApp();
});
afterAll(async () => {
  await app.close();
});

const send = async (path: string, key?: string) => {
  const res = await app.inject({ method: 'POST', url: `/expired-account/${path}`, ...(key ? { cookies: { expiredTrialSessionKey: key } } : {}) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { resultCode: string };
};

describe('/expired-account/*', () => {
  it.each([
    ['extension', 'expiredExtension', 'Trial extension request'],
    ['purchase', 'expiredPurchase', 'Purchase request'],
    ['speak-with-someone', 'expiredSpeakWithSomeone', 'Call request'],
  ])('%s: one request per expired-trial key, emailed to the account manager', async (path, operation, subject) => {
    const { body } = await login(app, 'expired@demo.test');
    const key = String(body.expiredTrialSessionKey);
    const answer = await send(path, key);
    expectContract(operation, answer);
    expect(answer).toEqual({ resultCode: 'SUCCESS' });
    const mails = (await app.inject({ method: 'GET', url: '/dev/outbox?to=alex.morgan@demo.test' })).json() as { subject: string; text: string }[];
    expect(mails[0]?.subject).toBe(subject);
    expect(mails[0]?.text).toContain('expired@demo.test');
    expect(await send(path, key)).toEqual({ resultCode: 'EXPIRED_SESSION_USED' });
  });
  it('without a valid cookie nothing is sent', async () => {
    expect(await send('extension')).toEqual({ resultCode: 'EXPIRED_SESSION_NOT_FOUND' });
    expect(await send('purchase', 'forged')).toEqual({ resultCode: 'EXPIRED_SESSION_NOT_FOUND' });
  });
});
