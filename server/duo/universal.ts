/**
 * Duo Universal Prompt with Duo's SDK (@duosecurity/duo_universal): DUO_CLIENT_ID, DUO_CLIENT_SECRET,
 * DUO_API_HOST. `startDuo` checks Duo's health, keeps the round trip's state (single use, in
 * sso_requests: the login token it continues, the Duo username, the browser's nonce hash) and answers
 * Duo's authorize URL; `finishDuo` takes the state from the callback (?duo_code=…&state=…), checks it
 * belongs to this browser (and, when the caller knows it, to this login token), and exchanges the code
 * at Duo's token endpoint; the SDK checks the id_token (HS512 with the client secret, issuer, audience,
 * username). Without these variables the demo's /dev/duo keeps working in demo mode.
 * A tenant may have a Duo application of its own (`npm run admin -- tenant-settings --duo-…`): the
 * settings are looked up per tenant at each start (its own, else the deployment's), and the state of
 * the round trip names the tenant, so the callback finishes with the application that started it.
 */
import type https from 'node:https';
import { Client, DuoException } from '@duosecurity/duo_universal';
import type { Database } from '../db/data.js';
import { browserBinding, putRequest, takeRequest } from '../sso/requests.js';
import type { DuoSettings } from './config.js';

export { checkDuo, type DuoSettings } from './config.js';

/** Where Duo sends the browser back (routes/duoCallback.ts), under PUBLIC_URL. */
export const DUO_CALLBACK_PATH = '/duo/callback';

export type DuoRefusal = 'DUO_UNAVAILABLE' | 'STATE_UNKNOWN' | 'OTHER_BROWSER' | 'OTHER_SIGN_IN' | 'DENIED' | 'CODE_REJECTED';

export const DUO_REFUSALS: Record<DuoRefusal, string> = {
  DUO_UNAVAILABLE: 'Duo cannot be reached right now. Try again in a moment, or use another sign-in method.',
  STATE_UNKNOWN: 'This Duo check took too long or was already completed. Sign in again.',
  OTHER_BROWSER: 'This Duo check was started in another browser. Sign in again in this one.',
  OTHER_SIGN_IN: 'This Duo check belongs to another sign-in. Sign in again.',
  DENIED: 'Duo did not approve this sign-in.',
  CODE_REJECTED: 'Duo did not confirm this sign-in. Sign in again.',
};

interface DuoState {
  lt: string;
  u: string;
  b: string;
  /** The tenant whose Duo settings started it (absent: a tenant without its own, or none known). */
  o?: number;
}

/** The Duo application of a tenant (its own, else the deployment's), or undefined: none. A fixed DuoSettings serves every tenant. */
export type DuoSettingsFor = (organizationId: number | null) => Promise<DuoSettings | undefined>;

export type DuoResult =
  { ok: true; loginTokenHash: string; username: string; device?: string | undefined } | { ok: false; reason: DuoRefusal; message: string; detail: string };

export interface DuoOptions {
  /** Where Duo sends the browser back: {PUBLIC_URL}/duo/callback. */
  redirectUrl: string;
  /**
   * Test seam only (never configured from the environment): the SDK pins Duo's own certificate
   * authorities; a local double of Duo's API is trusted through this agent instead.
   */
  httpsAgent?: https.Agent;
}

function refuse(reason: DuoRefusal, detail: string): DuoResult {
  return { ok: false, reason, message: DUO_REFUSALS[reason], detail };
}

export interface DuoUniversal {
  /** Whether a Duo application serves this tenant (else the demo's /dev/duo, in demo mode). */
  available(organizationId: number | null): Promise<boolean>;
  start(
    data: Database,
    input: { loginTokenHash: string; username: string; browserNonce: string; now: number; organizationId?: number | null },
  ): Promise<{ ok: true; url: string } | { ok: false; reason: 'DUO_UNAVAILABLE'; message: string; detail: string }>;
  finish(
    data: Database,
    input: { state: unknown; code: unknown; browserNonce: string | undefined; loginTokenHash?: string | undefined; now: number },
  ): Promise<DuoResult>;
}

export function createDuoUniversal(settings: DuoSettings | DuoSettingsFor, options: DuoOptions): DuoUniversal {
  const settingsFor: DuoSettingsFor = typeof settings === 'function' ? settings : async () => settings;
  const clientOf = (s: DuoSettings) => {
    const client = new Client({ clientId: s.clientId, clientSecret: s.clientSecret, apiHost: s.apiHost, redirectUrl: options.redirectUrl });
    if (options.httpsAgent) {
      // The SDK keeps its axios instance in a field TypeScript calls private; only tests reach this line.
      (client as unknown as { axios: { defaults: { httpsAgent: https.Agent } } }).axios.defaults.httpsAgent = options.httpsAgent;
    }
    return client;
  };
  return {
    available: async (organizationId) => (await settingsFor(organizationId)) !== undefined,
    async start(data, input) {
      const organizationId = input.organizationId ?? null;
      const found = await settingsFor(organizationId);
      if (!found)
        return { ok: false, reason: 'DUO_UNAVAILABLE', message: DUO_REFUSALS.DUO_UNAVAILABLE, detail: `no Duo application for organisation ${organizationId}` };
      const client = clientOf(found);
      try {
        await client.healthCheck();
      } catch (error) {
        return { ok: false, reason: 'DUO_UNAVAILABLE', message: DUO_REFUSALS.DUO_UNAVAILABLE, detail: (error as Error).message };
      }
      const state = client.generateState();
      await putRequest(
        data,
        `duo-state:${state}`,
        {
          lt: input.loginTokenHash,
          u: input.username,
          b: browserBinding(input.browserNonce),
          ...(organizationId !== null ? { o: organizationId } : {}),
        } satisfies DuoState,
        input.now,
      );
      return { ok: true, url: await client.createAuthUrl(input.username, state) };
    },
    async finish(data, input) {
      if (typeof input.state !== 'string' || typeof input.code !== 'string' || input.state.length > 1024 || input.code.length > 4096)
        return refuse('STATE_UNKNOWN', 'state or duo_code missing');
      const state = await takeRequest<DuoState>(data, `duo-state:${input.state}`, input.now);
      if (!state) return refuse('STATE_UNKNOWN', 'no such state');
      if (!input.browserNonce || browserBinding(input.browserNonce) !== state.b) return refuse('OTHER_BROWSER', 'browser nonce mismatch');
      if (input.loginTokenHash !== undefined && input.loginTokenHash !== state.lt) return refuse('OTHER_SIGN_IN', 'login token mismatch');
      // The application that started it: the tenant's own (removed meanwhile: unavailable) or the deployment's.
      const found = await settingsFor(state.o ?? null);
      if (!found) return refuse('DUO_UNAVAILABLE', `no Duo application for organisation ${state.o ?? null} any more`);
      try {
        const token = await clientOf(found).exchangeAuthorizationCodeFor2FAResult(input.code, state.u);
        if (token.auth_result?.status !== 'allow' && token.auth_result?.result !== 'allow')
          return refuse('DENIED', `auth_result ${JSON.stringify(token.auth_result)}`);
        return { ok: true, loginTokenHash: state.lt, username: state.u, device: token.auth_context?.auth_device?.name ?? undefined };
      } catch (error) {
        return refuse('CODE_REJECTED', error instanceof DuoException ? error.message : String(error));
      }
    },
  };
}
