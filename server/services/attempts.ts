/**
 * Failed sign-ins (kind 'login') and failed reset requests (kind 'reset'), counted in the database by
 * account (the normalised email, known or not, so counting reveals nothing) and by (account, address).
 *
 * reserve() counts an attempt BEFORE the password is checked, in one transaction with the decision:
 * concurrent guesses cannot all slip under the bot-check threshold (30 at once used to be 30 checks;
 * now the 4th already needs a solved bot check). A correct password forgives the account's failures.
 * Probes (authentication-state) only read.
 */
import { lockKey, type Queryable } from '../db/data.js';
import { LIMITS, retryAfterSeconds, type Limits } from './limits.js';

export const BOT_CHECK_AFTER_FAILURES = LIMITS.botCheckAfterFailures;

export type AttemptKind = 'login' | 'reset';

export type Reservation = { ok: true; failures: number } | { ok: false; reason: 'BOT_CHECK' } | { ok: false; reason: 'LOCKED'; retryAfter: number };

export interface Attempts {
  /** Failures of this account in the current hour. */
  failures(kind: AttemptKind, email: string): Promise<number>;
  /** Whether the next attempt needs a solved bot check. */
  botCheckRequired(kind: AttemptKind, email: string, alwaysFails: boolean): Promise<boolean>;
  /** Counts one attempt as failed unless it is refused (bot check missing, limits reached). */
  reserve(kind: AttemptKind, email: string, address: string, botCheckPassed: boolean, alwaysFails: boolean): Promise<Reservation>;
  /** The attempt succeeded: the account's failures are forgiven. */
  succeeded(kind: AttemptKind, email: string, address: string): Promise<void>;
  /** The attempt was neither a success nor a failure (e.g. an inactive account): uncount it. */
  release(kind: AttemptKind, email: string, address: string): Promise<void>;
}

const pairKey = (email: string, address: string) => `${email}\n${address}`;

export function createAttempts(limits: Limits, data: Queryable, now: () => number): Attempts {
  const window = LIMITS.window.failures;
  const failures = async (kind: AttemptKind, email: string) => (await limits.peek(data, kind, email, window)).count;
  return {
    failures,
    botCheckRequired: async (kind, email, alwaysFails) => alwaysFails || (await failures(kind, email)) >= BOT_CHECK_AFTER_FAILURES,
    reserve: (kind, email, address, botCheckPassed, alwaysFails) =>
      limits.atomically(
        async (t): Promise<Reservation> => {
          const account = await limits.peek(t, kind, email, window);
          const pair = await limits.peek(t, `${kind}-addr`, pairKey(email, address), window);
          if (account.count >= LIMITS.accountFailuresPerHour) return { ok: false, reason: 'LOCKED', retryAfter: retryAfterSeconds(account.resetAt, now()) };
          if (pair.count >= LIMITS.accountAddressFailuresPerHour) return { ok: false, reason: 'LOCKED', retryAfter: retryAfterSeconds(pair.resetAt, now()) };
          if ((alwaysFails || account.count >= BOT_CHECK_AFTER_FAILURES) && !botCheckPassed) return { ok: false, reason: 'BOT_CHECK' };
          await limits.hit(t, `${kind}-addr`, pairKey(email, address), window);
          return { ok: true, failures: (await limits.hit(t, kind, email, window)).count };
        },
        lockKey('email', email),
      ),
    succeeded: (kind, email, address) =>
      limits.atomically(
        async (t) => {
          await limits.clear(t, kind, email);
          await limits.clear(t, `${kind}-addr`, pairKey(email, address));
        },
        lockKey('email', email),
      ),
    release: (kind, email, address) =>
      limits.atomically(
        async (t) => {
          await limits.undo(t, kind, email);
          await limits.undo(t, `${kind}-addr`, pairKey(email, address));
        },
        lockKey('email', email),
      ),
  };
}
