/**
 * `npm run admin -- passkeys --email <email> [--remove <id> | --remove-all]`: the passkeys of an
 * account (table passkeys: each signs in alone, without password or second factor), and their removal
 * for an owner who lost a device or reports one they did not add (issue 35). A removed passkey is
 * refused at once by every instance, and the sessions it signed in end with it (db/passkeys.ts).
 * `reset-mfa` removes them all as well.
 */
import { email as isEmail } from '@frontdoor/validators';
import { listPasskeys, removePasskeys, type PasskeySummary } from '../db/passkeys.js';
import { describeUserAgent } from '../services/passkeyReview.js';
import { findUserByEmail, normalizeEmail } from '../db/accounts.js';
import { AdminError, EXIT, type AdminCommand } from './commands.js';

const when = (ms: number): string => `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/** One line per passkey: its number (for --remove), dates, the browser that added it, its kind. */
export function passkeyLine(p: PasskeySummary): string {
  const { browser, os } = describeUserAgent(p.userAgent);
  const device = [browser, os].filter(Boolean).join(' on ') || 'browser unknown';
  const kind = p.deviceType === 'multiDevice' ? 'synced' : 'one device';
  const used = p.lastUsedAt === null ? 'never used' : `last used ${when(p.lastUsedAt)}`;
  return `  #${p.id}  added ${when(p.createdAt)}, ${used}, ${device}, ${kind}${p.cloneSuspected ? ', refused (suspected clone)' : ''}`;
}

export const PASSKEY_COMMANDS: Record<string, AdminCommand> = {
  passkeys: {
    summary: "list a user's passkeys, or remove one (--remove <id>) or all (--remove-all)",
    usage: 'passkeys --email <email> [--remove <id> | --remove-all]',
    options: { email: { type: 'string' }, remove: { type: 'string' }, 'remove-all': { type: 'boolean' } },
    async run(ctx, values, out) {
      const raw = values.email;
      if (typeof raw !== 'string' || !isEmail(normalizeEmail(raw))) throw new AdminError('--email is required: the account whose passkeys to show', EXIT.usage);
      const email = normalizeEmail(raw);
      const remove = values.remove;
      if (remove !== undefined && (typeof remove !== 'string' || !/^[1-9]\d{0,15}$/.test(remove)))
        throw new AdminError(`--remove must be a passkey's number as this command lists it (#12: --remove 12), not ${JSON.stringify(remove)}`, EXIT.usage);
      if (remove !== undefined && values['remove-all']) throw new AdminError('--remove and --remove-all exclude each other', EXIT.usage);
      const user = await findUserByEmail(ctx.db, email);
      if (!user) throw new AdminError(`there is no user with the email ${email}`, EXIT.conflict);
      if (remove !== undefined || values['remove-all']) {
        const removed = await ctx.db.tx((t) => removePasskeys(t, user.id, values['remove-all'] ? { all: true } : { ids: [Number(remove)] }));
        if (remove !== undefined && removed.length === 0) throw new AdminError(`${user.email} has no passkey #${remove}`, EXIT.conflict);
        out(`${removed.length} passkey(s) of ${user.email} removed; the sessions they signed in ended`);
        for (const p of removed) out(passkeyLine(p));
      }
      const left = await listPasskeys(ctx.db, user.id);
      out(`passkeys of ${user.email}: ${left.length}`);
      for (const p of left) out(passkeyLine(p));
    },
  },
};
