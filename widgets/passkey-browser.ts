import type { PasskeySignals } from '../src/generated/api-types';

/**
 * What this browser can do with passkeys, and what it is told about them (issue 37). Each WebAuthn
 * feature is looked for before it is used and none ever throws: a browser without one simply does
 * without (docs/mfa.md has the table of who gets what). Used by the passkey widgets (passkeyCreate,
 * passkeyReview), the app's passkey step after a sign-in (src/app/passkey-step.ts) and its
 * `passkeySignals` action. Small and free of React: it loads with whichever needs it first.
 */

type Capabilities = Readonly<Record<string, boolean | undefined>>;

interface SignalsApi {
  getClientCapabilities?: () => Promise<Capabilities>;
  isUserVerifyingPlatformAuthenticatorAvailable?: () => Promise<boolean>;
  signalUnknownCredential?: (options: { rpId: string; credentialId: string }) => Promise<void>;
  signalAllAcceptedCredentials?: (options: { rpId: string; userId: string; allAcceptedCredentialIds: string[] }) => Promise<void>;
  signalCurrentUserDetails?: (options: { rpId: string; userId: string; name: string; displayName: string }) => Promise<void>;
}

/** The page's PublicKeyCredential with the parts browsers may lack, or undefined without WebAuthn. */
function publicKeyCredential(): SignalsApi | undefined {
  const pkc = (globalThis as { PublicKeyCredential?: unknown }).PublicKeyCredential;
  return typeof pkc === 'function' ? (pkc as SignalsApi) : undefined;
}

/** The browser's client capabilities (WebAuthn Level 3), {} where it has none or cannot say. */
export async function clientCapabilities(): Promise<Capabilities> {
  const pkc = publicKeyCredential();
  if (typeof pkc?.getClientCapabilities !== 'function') return {};
  try {
    return await pkc.getClientCapabilities();
  } catch {
    return {};
  }
}

/**
 * Whether this device can make a passkey: a platform authenticator that verifies its user (the client
 * capabilities where the browser has them, else isUserVerifyingPlatformAuthenticatorAvailable).
 * Never on a browser without WebAuthn.
 */
export async function canMakePasskey(): Promise<boolean> {
  const pkc = publicKeyCredential();
  if (!pkc) return false;
  const capabilities = await clientCapabilities();
  const said = capabilities.passkeyPlatformAuthenticator ?? capabilities.userVerifyingPlatformAuthenticator;
  if (said !== undefined) return said;
  try {
    return (await pkc.isUserVerifyingPlatformAuthenticatorAvailable?.()) ?? false;
  } catch {
    return false;
  }
}

/** Whether the browser says its password manager may create a passkey silently after a password sign-in (conditional create). */
export async function canCreateConditionally(): Promise<boolean> {
  return (await clientCapabilities()).conditionalCreate === true;
}

const isText = (value: unknown, max: number): value is string => typeof value === 'string' && value.length > 0 && value.length <= max;
const optionalText = (value: unknown, max: number) => value === undefined || isText(value, max);

/** Signals as the contract has them (schemas/api/common/passkeySignals.json). */
function isSignals(value: unknown): value is PasskeySignals {
  if (value === null || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  const ids = v.allAcceptedCredentialIds;
  return (
    isText(v.rpId, 253) &&
    optionalText(v.unknownCredentialId, 1400) &&
    optionalText(v.userId, 128) &&
    optionalText(v.name, 320) &&
    optionalText(v.displayName, 400) &&
    (ids === undefined || (Array.isArray(ids) && ids.length <= 200 && ids.every((id) => isText(id, 1400))))
  );
}

/** An answer's passkeySignals, or undefined when it has none (or none that hold). */
export function signalsIn(answer: unknown): PasskeySignals | undefined {
  const signals = answer !== null && typeof answer === 'object' && 'passkeySignals' in answer ? answer.passkeySignals : undefined;
  return isSignals(signals) ? signals : undefined;
}

/** The calls one set of signals makes, each with what it needs (a call lacking a field is left out). */
function callsFor(api: SignalsApi, signals: PasskeySignals): { name: string; run: () => Promise<void> | undefined }[] {
  const { rpId, userId, unknownCredentialId, allAcceptedCredentialIds, name, displayName } = signals;
  const calls: { name: string; run: () => Promise<void> | undefined }[] = [];
  if (unknownCredentialId)
    calls.push({ name: 'signalUnknownCredential', run: () => api.signalUnknownCredential?.({ rpId, credentialId: unknownCredentialId }) });
  if (userId && allAcceptedCredentialIds)
    calls.push({ name: 'signalAllAcceptedCredentials', run: () => api.signalAllAcceptedCredentials?.({ rpId, userId, allAcceptedCredentialIds }) });
  if (userId && name && displayName)
    calls.push({ name: 'signalCurrentUserDetails', run: () => api.signalCurrentUserDetails?.({ rpId, userId, name, displayName }) });
  return calls;
}

/**
 * Tells the browser what the server said (the WebAuthn Signals API): a credential no account holds
 * (signalUnknownCredential), the account's credentials still accepted (signalAllAcceptedCredentials:
 * its password manager hides the others), its current name (signalCurrentUserDetails). Each only where
 * the browser has it; a refusal changes nothing for the visitor. Resolves with the calls the browser took.
 */
export async function sendPasskeySignals(signals: PasskeySignals | undefined): Promise<string[]> {
  const api = publicKeyCredential();
  if (!api || !signals) return [];
  const sent: string[] = [];
  for (const call of callsFor(api, signals)) {
    try {
      const pending = call.run();
      if (pending === undefined) continue;
      await pending;
      sent.push(call.name);
    } catch {
      // A malformed id, a detached page: the password manager stays as it was, the visitor sees nothing.
    }
  }
  return sent;
}
