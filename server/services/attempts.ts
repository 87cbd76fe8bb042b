/**
 * Failed sign-ins (kind 'login') and failed reset requests (kind 'reset'), counted in the database by
 * account (the normalised email, known or not, so counting reveals nothing) and by (account, address).
 *
 * reserve() counts an attempt BEFORE the password is checked, in one transaction with the decision:
 * concurrent guesses cannot all slip under the bot-check threshold (30 at once used to be 30 checks;
 * now the 4th already needs a solved bot check). A correct password forgives the account's failures.
 * Probes (authentication-state) only read.
 */
import { LIMITS, retryAfterSeconds, type Limits } from './limits.js';

export const BOT_CHECK_AFTER_FAILURES = LIMITS.botCheckAfterFailures;

export type AttemptKind = 'login' | 'reset';

export type Reservation = { ok: true; failures: number } | { ok: false; reason: 'BOT_CHECK' } | { ok: false; reason: 'LOCKED'; retryAfter: number };

export interface Attempts {
  /** Failures of this account in the current hour. */
  failures(kind: AttemptKind, email: string): number;
  /** Whether the next attempt needs a solved bot check. */
  botCheckRequired(kind: AttemptKind, email: string, alwaysFails: boolean): boolean;
  /** Counts one attempt as failed unless it is refused (bot check missing, limits reached). */
  reserve(kind: AttemptKind, email: string, address: string, botCheckPassed: boolean, alwaysFails: boolean): Reservation;
  /** The attempt succeeded: the account's failures are forgiven. */
  succeeded(kind: AttemptKind, email: string, address: string): void;
  /** The attempt was neither a success nor a failure (e.g. an inactive account): uncount it. */
  release(kind: AttemptKind, email: string, address: string): void;
}

const pairKey = (email: string, address: string) => `${email}\n${address}`;

export function createAttempts(limits: Limits, now: () => number): Attempts {
  const window = LIMITS.window.failures;
  const failures = (kind: AttemptKind, email: string) => limits.peek(kind, email, window).count;
  const botCheckRequired = (kind: AttemptKind, email: string, alwaysFails: boolean) => alwaysFails || failures(kind, email) >= BOT_CHECK_AFTER_FAILURES;
  return {
    failures,
    botCheckRequired,
    reserve(kind, email, address, botCheckPassed, alwaysFails) {
      return limits.atomically((): Reservation => {
        const account = limits.peek(kind, email, window);
        const pair = limits.peek(`${kind}-addr`, pairKey(email, address), window);
        if (account.count >= LIMITS.accountFailuresPerHour) return { ok: false, reason: 'LOCKED', retryAfter: retryAfterSeconds(account.resetAt, now()) };
        if (pair.count >= LIMITS.accountAddressFailuresPerHour) return { ok: false, reason: 'LOCKED', retryAfter: retryAfterSeconds(pair.resetAt, now()) };
        if ((alwaysFails || account.count >= BOT_CHECK_AFTER_FAILURES) && !botCheckPassed) return { ok: false, reason: 'BOT_CHECK' };
        limits.hit(`${kind}-addr`, pairKey(email, address), window);
        return { ok: true, failures: limits.hit(kind, email, window).count };
      });
    },
    succeeded(kind, email, address) {
      limits.atomically(() => {
        limits.clear(kind, email);
        limits.clear(`${kind}-addr`, pairKey(email, address));
      });
    },
    release(kind, email, address) {
      limits.atomically(() => {
        limits.undo(kind, email);
        limits.undo(`${kind}-addr`, pairKey(email, address));
      });
    },
  };
}
