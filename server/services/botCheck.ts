/**
 * The bot check: a challenge a script must really pay for, behind one interface with two providers.
 * - "altcha" (default, self-hosted, works offline): ALTCHA proof of work (altcha-lib). The browser asks
 *   POST /ws/bot-check/challenge {action} for a signed challenge, spends CPU to solve it, and sends
 *   base64(JSON {challenge, solution}) as recaptchaToken. The challenge carries its action and expiry
 *   inside the HMAC, so a solution is good for that action only, for 2 minutes, once.
 * - "recaptcha-enterprise": the token from Google's script, verified server side with the assessment
 *   API (valid, same action, score at or above the threshold), once.
 * Only the configured provider's tokens count. Accounts flagged bot_check_always_fails (the demo's
 * captcha-fail@) never pass.
 */
import { createChallenge, randomInt, verifySolution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import type { Challenge, Payload } from 'altcha-lib/types';
import type { Queryable } from '../db/data.js';
import { sha256 } from '../crypto/primitives.js';
import { spendOnce } from './signedTokens.js';

export const BOT_CHECK_TTL_MS = 2 * 60 * 1000;

/**
 * Work per challenge: the solver tries counters 0, 1, 2 … until SHA-256(salt | nonce | counter) starts
 * with the signed prefix; the answer is a random counter in this range, so a browser does on average
 * (min + max) / 2 = 100,000 hashes: ~0.3 s in desktop Chromium, a few seconds on a slow phone
 * (docs/security.md has the measured figures).
 */
export const ALTCHA_COUNTER = { min: 50_000, max: 150_000 } as const;
const ALTCHA_ALGORITHM = 'SHA-256';

/** What a route demands the check for: the token's action must be the route's. */
export type BotCheckAction = 'login' | 'samlInit' | 'resetPasswordInit' | 'register' | 'requestActivationEmail' | 'activateAccount';

export type BotCheckClientConfig = { provider: 'altcha' } | { provider: 'recaptcha-enterprise'; siteKey: string };

export interface BotCheckProvider {
  readonly name: BotCheckClientConfig['provider'];
  clientConfig(): BotCheckClientConfig;
  /** A signed challenge for the browser to solve, for providers that issue their own (ALTCHA). */
  challenge?(action: string): Promise<Challenge>;
  /**
   * The token proves a solved challenge for this action: the id that makes it single use (the same
   * challenge re-encoded is the same id), else null. BotCheck records the id as spent.
   */
  verify(token: string, action: string): Promise<string | null>;
}

export interface BotCheck {
  readonly provider: BotCheckProvider;
  /** A signed proof-of-work challenge (altcha provider only; undefined otherwise). */
  challenge(action: string): Promise<Challenge | undefined>;
  /** True once per good token for this action; never for always-failing accounts. */
  verify(token: string | undefined, action: BotCheckAction, opts?: { alwaysFails?: boolean }): Promise<boolean>;
}

/** ALTCHA challenges signed with the first key pair, verified with any (the second: APP_SECRET_PREVIOUS's during a rotation). */
export function altchaProvider(
  keyPairs: ReadonlyArray<{ hmacKey: string; keySignatureKey: string }>,
  now: () => number,
  work: { min: number; max: number } = ALTCHA_COUNTER,
): BotCheckProvider {
  const keys = keyPairs[0];
  if (!keys) throw new Error('ALTCHA needs a key pair');
  return {
    name: 'altcha',
    clientConfig: () => ({ provider: 'altcha' }),
    challenge: (action) =>
      createChallenge({
        algorithm: ALTCHA_ALGORITHM,
        cost: 1,
        counter: randomInt(work.min, work.max),
        deriveKey,
        data: { action },
        expiresAt: Math.floor((now() + BOT_CHECK_TTL_MS) / 1000),
        hmacSignatureSecret: keys.hmacKey,
        hmacKeySignatureSecret: keys.keySignatureKey,
      }),
    async verify(token, action) {
      let payload: Payload;
      try {
        payload = JSON.parse(Buffer.from(token, 'base64').toString('utf8')) as Payload;
      } catch {
        return null;
      }
      const params = payload?.challenge?.parameters;
      if (!params || typeof params !== 'object' || params.data?.action !== action || typeof payload.challenge.signature !== 'string') return null;
      // Our clock (tests move it), besides altcha-lib's own check against the wall clock.
      if (typeof params.expiresAt !== 'number' || params.expiresAt * 1000 <= now()) return null;
      for (const pair of keyPairs) {
        try {
          const result = await verifySolution({
            challenge: payload.challenge,
            solution: payload.solution,
            deriveKey,
            hmacSignatureSecret: pair.hmacKey,
            hmacKeySignatureSecret: pair.keySignatureKey,
          });
          if (result.verified) return `altcha:${payload.challenge.signature}`;
        } catch {
          // Not this pair's: the next.
        }
      }
      return null;
    },
  };
}

export interface RecaptchaOptions {
  siteKey: string;
  projectId: string;
  apiKey: string;
  /** Lowest acceptable score (0–1). */
  minScore: number;
  /** Base URL of the assessment API (tests point it at a local fake). */
  apiBase: string;
  timeoutMs?: number;
  log?: (message: string) => void;
}

/** reCAPTCHA Enterprise, verified with projects.assessments.create. Any failure on the way fails closed. */
export function recaptchaEnterpriseProvider(options: RecaptchaOptions): BotCheckProvider {
  const url = `${options.apiBase.replace(/\/+$/, '')}/v1/projects/${encodeURIComponent(options.projectId)}/assessments?key=${encodeURIComponent(options.apiKey)}`;
  return {
    name: 'recaptcha-enterprise',
    clientConfig: () => ({ provider: 'recaptcha-enterprise', siteKey: options.siteKey }),
    async verify(token, action) {
      try {
        const res = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ event: { token, siteKey: options.siteKey, expectedAction: action } }),
          signal: AbortSignal.timeout(options.timeoutMs ?? 5000),
        });
        if (!res.ok) {
          options.log?.(`reCAPTCHA assessment answered ${res.status}`);
          return null;
        }
        const body = (await res.json()) as { tokenProperties?: { valid?: unknown; action?: unknown }; riskAnalysis?: { score?: unknown } };
        const score = body.riskAnalysis?.score;
        const good = body.tokenProperties?.valid === true && body.tokenProperties.action === action && typeof score === 'number' && score >= options.minScore;
        return good ? `recaptcha:${sha256(token)}` : null;
      } catch (error) {
        options.log?.(`reCAPTCHA assessment failed: ${(error as Error).message}`);
        return null;
      }
    },
  };
}

export function createBotCheck(data: Queryable, provider: BotCheckProvider, now: () => number): BotCheck {
  /** Single use across instances: the first verifier of a solved challenge records it. */
  const spend = (id: string): Promise<boolean> => spendOnce(data, sha256(id), 'bot-check', now() + BOT_CHECK_TTL_MS, now());
  return {
    provider,
    challenge: async (action) => provider.challenge?.(action),
    async verify(token, action, opts = {}) {
      if (!token || token.length > 4096 || opts.alwaysFails) return false;
      const id = await provider.verify(token, action);
      return id !== null && (await spend(id));
    },
  };
}
