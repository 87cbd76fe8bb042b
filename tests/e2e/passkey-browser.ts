import type { BrowserContext, CDPSession, Page } from '@playwright/test';

/**
 * Chromium's passkey machinery for the browser tests: its virtual authenticator (CDP WebAuthn domain),
 * and what headless Chromium 156 lacks, put in the page by init scripts (issue 37):
 * - its getClientCapabilities() says conditionalCreate: true, but with a virtual authenticator
 *   `navigator.credentials.create({ mediation: 'conditional' })` never settles (there is no password
 *   manager to ask; without an authenticator it is refused at once). `standInForPasswordManager`
 *   records each such request and makes it, without the mediation, against the virtual authenticator:
 *   the creation the password manager would do silently. `withoutConditionalCreate` makes the page
 *   say conditionalCreate: false instead (the branch of a browser that cannot: the offer screen).
 * - the Signals API is Chromium's own, and its virtual authenticator honours it (a credential signalled
 *   unknown, or left out of the accepted list, is deleted); `spyOnSignals` records the calls too.
 */

export interface Authenticator {
  hasResidentKey: boolean;
  hasUserVerification: boolean;
  isUserVerified?: boolean;
  transport?: 'internal' | 'usb';
}

export const PLATFORM_WITH_RESIDENT_KEYS: Authenticator = { hasResidentKey: true, hasUserVerification: true, isUserVerified: true };

export async function addAuthenticator(page: Page, kind: Authenticator = PLATFORM_WITH_RESIDENT_KEYS): Promise<{ cdp: CDPSession; authenticatorId: string }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { transport = 'internal', ...rest } = kind;
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport, automaticPresenceSimulation: true, ...rest },
  });
  return { cdp, authenticatorId };
}

/** The page says its password manager cannot create passkeys by itself (no conditional create). */
export async function withoutConditionalCreate(target: Page | BrowserContext): Promise<void> {
  await target.addInitScript(() => {
    const pkc = window.PublicKeyCredential as (typeof PublicKeyCredential & { getClientCapabilities?: () => Promise<Record<string, boolean>> }) | undefined;
    const original = pkc?.getClientCapabilities?.bind(pkc);
    if (!pkc || !original) return;
    pkc.getClientCapabilities = async () => ({ ...(await original()), conditionalCreate: false });
  });
}

/** What the page asked with mediation 'conditional', as standInForPasswordManager recorded it. */
export interface ConditionalCreate {
  hints: string[];
  userVerification: string | undefined;
  rpId: string | undefined;
}

/** Conditional create, made against the virtual authenticator in the password manager's stead (see above); each recorded (sessionStorage: it outlives the page). */
export async function standInForPasswordManager(target: Page | BrowserContext): Promise<void> {
  await target.addInitScript(() => {
    const container = navigator.credentials;
    const create = container.create.bind(container);
    // `mediation` on create() is newer than TypeScript's DOM types.
    container.create = (options?: CredentialCreationOptions & { mediation?: string }) => {
      if (options?.mediation !== 'conditional') return create(options);
      const publicKey = options.publicKey as PublicKeyCredentialCreationOptions & { hints?: string[] };
      const asked = JSON.parse(sessionStorage.getItem('conditional-creates') ?? '[]') as unknown[];
      const request = { hints: publicKey.hints ?? [], userVerification: publicKey.authenticatorSelection?.userVerification, rpId: publicKey.rp.id };
      sessionStorage.setItem('conditional-creates', JSON.stringify([...asked, request]));
      const { mediation: _mediation, ...rest } = options;
      return create(rest);
    };
  });
}

export const conditionalCreates = (page: Page): Promise<ConditionalCreate[]> =>
  page.evaluate(() => JSON.parse(sessionStorage.getItem('conditional-creates') ?? '[]') as ConditionalCreate[]);

/** One Signals API call as the page made it. */
export interface SignalCall {
  name: 'signalUnknownCredential' | 'signalAllAcceptedCredentials' | 'signalCurrentUserDetails';
  options: Record<string, unknown>;
}

/** Records every Signals API call (kept across the page's navigations in sessionStorage), then lets Chromium have it. */
export async function spyOnSignals(target: Page | BrowserContext): Promise<void> {
  await target.addInitScript(() => {
    const pkc = window.PublicKeyCredential as unknown as Record<string, ((options: unknown) => Promise<void>) | undefined> | undefined;
    if (!pkc) return;
    for (const name of ['signalUnknownCredential', 'signalAllAcceptedCredentials', 'signalCurrentUserDetails']) {
      const original = pkc[name]?.bind(pkc);
      if (!original) continue;
      pkc[name] = (options: unknown) => {
        const calls = JSON.parse(sessionStorage.getItem('signal-calls') ?? '[]') as unknown[];
        sessionStorage.setItem('signal-calls', JSON.stringify([...calls, { name, options }]));
        return original(options);
      };
    }
  });
}

/** The signals the page has sent so far; none while it is between two documents (a navigation under way). */
export const signalCalls = (page: Page): Promise<SignalCall[]> =>
  page
    .evaluate(() => JSON.parse(sessionStorage.getItem('signal-calls') ?? '[]') as SignalCall[])
    .catch((error: unknown) => {
      if (String(error).includes('Execution context was destroyed')) return [];
      throw error;
    });

/** The virtual authenticator's credentials (ids base64url, as the server names them). */
export async function credentialsOf(cdp: CDPSession, authenticatorId: string): Promise<{ id: string; rpId: string; userName: string }[]> {
  const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
  return credentials.map((c) => ({ id: Buffer.from(c.credentialId, 'base64').toString('base64url'), rpId: c.rpId ?? '', userName: c.userName ?? '' }));
}
