import type { PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/browser';
import { callOperation } from '../api/client';
import { reportFailure } from '../api/report';
import { canCreateConditionally, canMakePasskey } from '../../widgets/passkey-browser';

/**
 * The passkey step of a sign-in whose answer named one (passkeyOffer, issue 37; loaded only then, by
 * ./after-sign-in.ts):
 * - REVIEW: the passkeys to review after a reset, on /passkey (screens/passkeyOffer.json);
 * - OFFER where the browser says its password manager may create a passkey by itself (conditional
 *   create, `getClientCapabilities().conditionalCreate`): it is asked right away, without a screen or a
 *   word; whatever it answers, the visitor goes on (a refusal is normal: no saved password was used
 *   just now, or it has one already), and only faults are reported;
 * - OFFER elsewhere, on a device that can make a passkey: the offer screen; else straight on.
 */

/**
 * How long the password manager's answer is waited for. It answers at once when it declines; an
 * answer that never comes (a browser without a password manager may keep the request open) must not
 * hold the visitor's way on.
 */
export const CONDITIONAL_CREATE_WAIT_MS = 5000;

/** Refusals that are the password manager's to make: not faults. */
const DECLINED = new Set(['NotAllowedError', 'AbortError', 'InvalidStateError']);

export type PasskeyStepOutcome = 'screen' | 'on';

export async function passkeyStep(offer: 'OFFER' | 'REVIEW'): Promise<PasskeyStepOutcome> {
  if (offer === 'REVIEW') return 'screen';
  if (await canCreateConditionally()) {
    await createSilently();
    return 'on';
  }
  return (await canMakePasskey()) ? 'screen' : 'on';
}

const errorName = (error: unknown): string => (error instanceof Error ? error.name : 'Error');

/** Conditional create: options for it, the password manager's silent creation, then the server keeps the passkey. */
async function createSilently(): Promise<void> {
  const options = await callOperation('passkeyRegisterOptions', { conditional: true });
  // The client validated the answer against the contract; the library names the same shape more precisely.
  const optionsJSON = (options.data as { options?: PublicKeyCredentialCreationOptionsJSON } | undefined)?.options;
  if (options.code !== 'SUCCESS' || !optionsJSON)
    return reportFailure({ operation: 'passkeyRegisterOptions', code: options.code, status: options.status || 200 });
  const webauthn = await import('@simplewebauthn/browser');
  let waited = false;
  const timer = setTimeout(() => {
    waited = true;
    webauthn.WebAuthnAbortService.cancelCeremony();
  }, CONDITIONAL_CREATE_WAIT_MS);
  let credential: Awaited<ReturnType<typeof webauthn.startRegistration>>;
  try {
    credential = await webauthn.startRegistration({ optionsJSON, useAutoRegister: true });
  } catch (error) {
    if (!waited && !DECLINED.has(errorName(error))) reportFailure({ operation: 'conditionalCreate', code: errorName(error), status: 200 });
    return;
  } finally {
    clearTimeout(timer);
  }
  const saved = await callOperation('passkeyRegister', { credentialJson: JSON.stringify(credential) });
  if (saved.code !== 'SUCCESS') reportFailure({ operation: 'passkeyRegister', code: saved.code, status: saved.status || 200 });
}
