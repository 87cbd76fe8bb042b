// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { afterSignIn } from '../../src/app/after-sign-in';
import { CONDITIONAL_CREATE_WAIT_MS, passkeyStep } from '../../src/app/passkey-step';
import { json, stubFetch } from '../platform/helpers';

/**
 * After a sign-in (src/app/after-sign-in.ts, src/app/passkey-step.ts; issue 37): the answer decides the
 * passkey step. None named: straight on, nothing loaded or asked. OFFER where the password manager can
 * create one by itself: conditional create, silently, then on; where it cannot, the offer screen on a
 * device that can make a passkey, else on. REVIEW: the screen. @simplewebauthn/browser is a fake here
 * (the real one runs in tests/e2e/passkeys-ux.spec.ts against Chromium's virtual authenticator).
 */
const webauthn = vi.hoisted(() => ({ startRegistration: vi.fn(), cancelCeremony: vi.fn() }));
vi.mock('@simplewebauthn/browser', () => ({
  startRegistration: webauthn.startRegistration,
  WebAuthnAbortService: { cancelCeremony: webauthn.cancelCeremony },
}));
const reports = vi.hoisted(() => [] as unknown[]);
vi.mock('../../src/api/report', () => ({ reportFailure: (report: unknown) => reports.push(report) }));

function browserWith(capabilities: Record<string, boolean>) {
  vi.stubGlobal(
    'PublicKeyCredential',
    Object.assign(function PublicKeyCredential() {}, { getClientCapabilities: async () => capabilities }),
  );
}

const OPTIONS = {
  resultCode: 'SUCCESS',
  options: { challenge: 'c', rp: { id: 'localhost', name: 'Frontdoor' }, user: { id: 'u', name: 'n', displayName: 'd' } },
};
const registerRoutes = () =>
  stubFetch({
    '/ws/account/passkey/register-options': () => json(OPTIONS),
    '/ws/account/passkey': () => json({ resultCode: 'SUCCESS', userType: 'TECHNICIAN' }),
  });

let assign: ReturnType<typeof vi.fn>;
let win: Window;
beforeEach(() => {
  assign = vi.fn();
  win = { location: { origin: 'http://localhost', assign } } as unknown as Window;
  reports.length = 0;
  webauthn.startRegistration.mockReset();
  webauthn.cancelCeremony.mockReset();
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('the answer decides the passkey step', () => {
  it('no step named: straight to the landing page, no call made', async () => {
    browserWith({ conditionalCreate: true, passkeyPlatformAuthenticator: true });
    const urls = stubFetch({});
    const navigate = vi.fn();
    await afterSignIn({ query: {}, response: { resultCode: 'SUCCESS', userType: 'TECHNICIAN' } }, navigate, win);
    expect(assign).toHaveBeenCalledWith('/app/');
    expect(navigate).not.toHaveBeenCalled();
    expect(urls).toEqual([]);
  });

  it('REVIEW, or OFFER without conditional create on a device that can make one: /passkey with where to go after', async () => {
    browserWith({ conditionalCreate: false, passkeyPlatformAuthenticator: true });
    const navigate = vi.fn();
    const query = { return_to: '/app/reports', other: 'x' };
    await afterSignIn({ query, response: { resultCode: 'SUCCESS', passkeyOffer: 'OFFER' } }, navigate, win);
    await afterSignIn({ query: {}, response: { resultCode: 'SUCCESS', passkeyOffer: 'REVIEW' } }, navigate, win);
    expect(navigate.mock.calls).toEqual([['/passkey?return_to=%2Fapp%2Freports'], ['/passkey']]);
    expect(assign).not.toHaveBeenCalled();
  });

  it('OFFER on a device that cannot make a passkey: straight on', async () => {
    browserWith({ conditionalCreate: false, passkeyPlatformAuthenticator: false });
    expect(await passkeyStep('OFFER')).toBe('on');
  });
});

describe('conditional create', () => {
  it('asks the password manager silently, keeps what it made, then goes on; no screen', async () => {
    browserWith({ conditionalCreate: true });
    const urls = registerRoutes();
    webauthn.startRegistration.mockResolvedValue({ id: 'new', type: 'public-key' });
    const navigate = vi.fn();
    await afterSignIn({ query: {}, response: { resultCode: 'SUCCESS', userType: 'END_USER', passkeyOffer: 'OFFER' } }, navigate, win);
    expect(webauthn.startRegistration).toHaveBeenCalledWith({ optionsJSON: OPTIONS.options, useAutoRegister: true });
    expect(urls).toEqual(['/ws/account/passkey/register-options', '/ws/account/passkey']);
    expect(navigate).not.toHaveBeenCalled();
    expect(assign).toHaveBeenCalledWith('/eus/');
    expect(reports).toEqual([]);
  });

  it("the password manager's refusals are normal: nothing reported; a fault is reported, and the visitor goes on either way", async () => {
    browserWith({ conditionalCreate: true });
    registerRoutes();
    for (const name of ['NotAllowedError', 'InvalidStateError', 'SecurityError']) {
      webauthn.startRegistration.mockRejectedValueOnce(Object.assign(new Error(name), { name }));
      expect(await passkeyStep('OFFER')).toBe('on');
    }
    expect(reports).toEqual([{ operation: 'conditionalCreate', code: 'SecurityError', status: 200 }]);
  });

  it('an answer that never comes is given up after a while (the ceremony cancelled)', async () => {
    vi.useFakeTimers();
    browserWith({ conditionalCreate: true });
    registerRoutes();
    webauthn.startRegistration.mockImplementation(
      () =>
        new Promise((_resolve, reject) =>
          webauthn.cancelCeremony.mockImplementation(() => reject(Object.assign(new Error('cancelled'), { name: 'AbortError' }))),
        ),
    );
    const step = passkeyStep('OFFER');
    await vi.waitFor(() => expect(webauthn.startRegistration).toHaveBeenCalled());
    await vi.advanceTimersByTimeAsync(CONDITIONAL_CREATE_WAIT_MS);
    expect(await step).toBe('on');
    expect(webauthn.cancelCeremony).toHaveBeenCalledTimes(1);
    expect(reports).toEqual([]);
  });
});
