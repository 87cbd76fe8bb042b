/**
 * WebAuthn pieces that the MFA security keys (services/securityKeys.ts) and passkey sign-in
 * (services/passkeys.ts) share: reading a browser's credential JSON.
 */
import type { AuthenticationResponseJSON } from '@simplewebauthn/server';

/** The parsed text, or undefined when it is not JSON (the caller answers MALFORMED_CREDENTIAL). */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isAssertion(value: unknown): value is AuthenticationResponseJSON {
  const v = value as Partial<AuthenticationResponseJSON> | null | undefined;
  const r = v?.response as Partial<AuthenticationResponseJSON['response']> | undefined;
  return (
    typeof v?.id === 'string' &&
    v.id.length > 0 &&
    v.id.length <= 1400 &&
    v.type === 'public-key' &&
    typeof r?.authenticatorData === 'string' &&
    typeof r.clientDataJSON === 'string' &&
    typeof r.signature === 'string' &&
    (r.userHandle === undefined || r.userHandle === null || typeof r.userHandle === 'string')
  );
}

/** A credential JSON that has an assertion's shape (id, type and the three signed strings), or undefined. */
export function parseAssertion(text: string): AuthenticationResponseJSON | undefined {
  const value = parseJson(text);
  return isAssertion(value) ? value : undefined;
}
