import { afterEach, describe, expect, it, vi } from 'vitest';

/**
 * The server may demand the bot check of any call (registrations and reset requests under load): a
 * call made without a token is made once more with one, so the visitor never sees that refusal.
 */
const getToken = vi.fn(async (action: string) => `token-for-${action}`);
vi.mock('../../src/api/botcheck', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/api/botcheck')>();
  return { ...original, createProvider: async () => ({ name: 'fake', getToken }) };
});

const { operationCaller } = await import('../../src/api/operation-caller');
const { noteBotCheckRequirement } = await import('../../src/api/botcheck');

const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });

function stubFetch(answers: unknown[]) {
  const bodies: Record<string, unknown>[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (_url: string, init: RequestInit) => {
      bodies.push(JSON.parse(String(init.body)) as Record<string, unknown>);
      return json(answers[bodies.length - 1] ?? answers.at(-1));
    }),
  );
  return bodies;
}

afterEach(() => {
  vi.unstubAllGlobals();
  getToken.mockClear();
  // The page's memory of a demanded check (a new page starts without it).
  noteBotCheckRequirement({ recaptchaRequired: false });
});

describe('operationCaller: a bot check demanded after the fact', () => {
  it('asks again once with a token for the call’s action', async () => {
    const bodies = stubFetch([{ resultCode: 'HUMAN_VERIFICATION_FAILED', recaptchaRequired: true }, { resultCode: 'SUCCESS' }]);
    const call = operationCaller({ provider: 'altcha' });
    const result = await call('register', { email: 'a@b.test' }, { botCheckAction: 'register' });
    expect(result.code).toBe('SUCCESS');
    expect(bodies).toEqual([{ email: 'a@b.test' }, { email: 'a@b.test', recaptchaToken: 'token-for-register' }]);
  });

  it('a refusal that came with a token is the answer (no loop)', async () => {
    const bodies = stubFetch([
      { resultCode: 'HUMAN_VERIFICATION_FAILED', recaptchaRequired: true },
      { resultCode: 'HUMAN_VERIFICATION_FAILED', recaptchaRequired: true },
    ]);
    const call = operationCaller({ provider: 'altcha' });
    const result = await call('requestActivationEmail', { email: 'a@b.test' });
    expect(result.code).toBe('HUMAN_VERIFICATION_FAILED');
    expect(bodies).toHaveLength(2);
    expect(getToken).toHaveBeenCalledTimes(1);
  });

  it('other answers are not asked again', async () => {
    const bodies = stubFetch([{ resultCode: 'AUTHENTICATION_FAILURE', recaptchaRequired: true }]);
    const call = operationCaller({ provider: 'altcha' });
    expect((await call('activateAccount', { activationKey: 'k', password: 'p' })).code).toBe('AUTHENTICATION_FAILURE');
    expect(bodies).toHaveLength(1);
  });
});
