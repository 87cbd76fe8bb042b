// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { canCreateConditionally, canMakePasskey, sendPasskeySignals, signalsIn } from '../../widgets/passkey-browser';

/**
 * widgets/passkey-browser.ts (issue 37): every WebAuthn feature looked for before use, never an error
 * where one is missing or refuses; the signals sent with exactly what the server said.
 */
afterEach(() => {
  vi.unstubAllGlobals();
});

/** A PublicKeyCredential with only the given static members (a browser's partial support). */
function browserWith(members: Record<string, unknown>) {
  const pkc = Object.assign(function PublicKeyCredential() {}, members);
  vi.stubGlobal('PublicKeyCredential', pkc);
  return pkc;
}

const SIGNALS = { rpId: 'example.test', userId: 'dXNlcg', allAcceptedCredentialIds: ['a1', 'b2'], name: 'ada@example.test', displayName: 'Ada L' };

describe('what the browser can do', () => {
  it('without WebAuthn: nothing, and no error', async () => {
    vi.stubGlobal('PublicKeyCredential', undefined);
    expect(await canMakePasskey()).toBe(false);
    expect(await canCreateConditionally()).toBe(false);
    expect(await sendPasskeySignals(SIGNALS)).toEqual([]);
  });

  it('the client capabilities where the browser has them, else the older question; a failing one counts as no', async () => {
    browserWith({ getClientCapabilities: async () => ({ conditionalCreate: true, passkeyPlatformAuthenticator: false }) });
    expect(await canCreateConditionally()).toBe(true);
    expect(await canMakePasskey()).toBe(false);
    browserWith({ isUserVerifyingPlatformAuthenticatorAvailable: async () => true });
    expect(await canCreateConditionally()).toBe(false);
    expect(await canMakePasskey()).toBe(true);
    browserWith({
      getClientCapabilities: () => Promise.reject(new Error('detached')),
      isUserVerifyingPlatformAuthenticatorAvailable: () => Promise.reject(new Error('detached')),
    });
    expect(await canCreateConditionally()).toBe(false);
    expect(await canMakePasskey()).toBe(false);
  });
});

describe('the signals', () => {
  it('each call the server answer supports, with its fields; a browser that has none is left alone', async () => {
    const all = vi.fn(async () => undefined);
    const user = vi.fn(async () => undefined);
    const unknown = vi.fn(async () => undefined);
    browserWith({ signalAllAcceptedCredentials: all, signalCurrentUserDetails: user, signalUnknownCredential: unknown });
    expect(await sendPasskeySignals(SIGNALS)).toEqual(['signalAllAcceptedCredentials', 'signalCurrentUserDetails']);
    expect(all).toHaveBeenCalledWith({ rpId: 'example.test', userId: 'dXNlcg', allAcceptedCredentialIds: ['a1', 'b2'] });
    expect(user).toHaveBeenCalledWith({ rpId: 'example.test', userId: 'dXNlcg', name: 'ada@example.test', displayName: 'Ada L' });
    expect(unknown).not.toHaveBeenCalled();
    expect(await sendPasskeySignals({ rpId: 'example.test', unknownCredentialId: 'gone' })).toEqual(['signalUnknownCredential']);
    expect(unknown).toHaveBeenCalledWith({ rpId: 'example.test', credentialId: 'gone' });
    // An empty list is a list: every passkey of the account is gone.
    expect(await sendPasskeySignals({ rpId: 'example.test', userId: 'dXNlcg', allAcceptedCredentialIds: [] })).toEqual(['signalAllAcceptedCredentials']);

    browserWith({});
    expect(await sendPasskeySignals(SIGNALS)).toEqual([]);
  });

  it('a refusal (a malformed id) stops nothing else and is not an error', async () => {
    const user = vi.fn(async () => undefined);
    browserWith({ signalAllAcceptedCredentials: () => Promise.reject(new TypeError('Invalid base64url')), signalCurrentUserDetails: user });
    expect(await sendPasskeySignals(SIGNALS)).toEqual(['signalCurrentUserDetails']);
  });

  it("an answer's signals hold as the contract says, or there are none", () => {
    expect(signalsIn({ resultCode: 'SUCCESS', passkeySignals: SIGNALS })).toEqual(SIGNALS);
    for (const answer of [
      undefined,
      null,
      'x',
      { resultCode: 'SUCCESS' },
      { passkeySignals: { userId: 'u' } },
      { passkeySignals: { rpId: 'example.test', allAcceptedCredentialIds: 'a1' } },
      { passkeySignals: { rpId: 'example.test', allAcceptedCredentialIds: [1] } },
    ])
      expect(signalsIn(answer), JSON.stringify(answer)).toBeUndefined();
  });
});
