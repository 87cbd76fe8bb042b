/**
 * Bot check. Provider "local" (demo tenant): POST /ws/bot-check/token issues an HMAC-signed token that
 * expires after 2 minutes and is accepted once. Accounts flagged bot_check_always_fails (captcha-fail@)
 * never pass. Provider "recaptcha-enterprise" would verify with Google; not implemented in this server.
 */
import type { SignedTokens } from './signedTokens.js';

export const BOT_CHECK_TTL_MS = 2 * 60 * 1000;
const PURPOSE = 'bot-check';

export interface BotCheck {
  issue(action: string): string;
  verify(token: string | undefined, opts?: { alwaysFails?: boolean }): boolean;
}

export function createBotCheck(tokens: SignedTokens): BotCheck {
  return {
    issue: (action) => tokens.sign(PURPOSE, BOT_CHECK_TTL_MS, { act: action }),
    verify(token, opts = {}) {
      if (!token) return false;
      const ok = tokens.consume(token, PURPOSE) !== null;
      return ok && !opts.alwaysFails;
    },
  };
}
