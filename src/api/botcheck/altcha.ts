import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/web/sha';
import type { Challenge } from 'altcha-lib/types';
import { callOperation } from '../client';
import { BotCheckUnavailableError, type BotCheckProvider } from './provider';

/** A solve that has not finished by then gives up (the server's challenge lives 2 minutes). */
export const SOLVE_TIMEOUT_MS = 60_000;

/**
 * The self-hosted provider: ALTCHA proof of work. The server signs a challenge for the action; the
 * browser finds the counter whose SHA-256 (WebCrypto, async, so the page stays responsive) starts
 * with the signed prefix and sends the solution as the token. Loaded only when the server demands
 * a bot check, and it runs under the app's strict CSP (no eval, no worker, no inline code).
 */
export class AltchaProvider implements BotCheckProvider {
  readonly name = 'altcha';

  async getToken(action: string): Promise<string> {
    const result = await callOperation('botCheckChallenge', { action });
    const challenge = result.data as Challenge | undefined;
    if (!result.ok || !challenge?.parameters) throw new BotCheckUnavailableError(`altcha challenge: ${result.code}`);
    const solution = await solveChallenge({ challenge, deriveKey, timeout: SOLVE_TIMEOUT_MS });
    if (!solution) throw new BotCheckUnavailableError('altcha challenge not solved in time');
    return btoa(JSON.stringify({ challenge, solution: { counter: solution.counter, derivedKey: solution.derivedKey } }));
  }
}
