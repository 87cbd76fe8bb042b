/** Accounts as the sign-in rules see them: the MFA methods, an email's account, SMS regions, IP allow lists (the rows: db/accounts.ts). */
import { BlockList, isIPv4, isIPv6 } from 'node:net';
import type { AppContext } from '../context.js';
import { findUserByEmail, normalizeEmail, rehashPassword, type UserRow } from '../db/accounts.js';
import type { Queryable } from '../db/data.js';
import type { MfaType as ContractMfaType } from '../../src/generated/api-types.js';
import { MFA_METHODS, SMS_UNSUPPORTED_CALLING_CODES } from './lists.js';

export type MfaType = ContractMfaType;
export const ALL_MFA_TYPES = MFA_METHODS as readonly MfaType[];

/** The normalised email a request names and its account, if any (an empty email finds none). */
export async function accountOf(q: Queryable, rawEmail: string): Promise<{ email: string; user: UserRow | undefined }> {
  const email = normalizeEmail(rawEmail);
  return { email, user: email ? await findUserByEmail(q, email) : undefined };
}

/** After a right password: a legacy scrypt hash (or an argon2 hash of a lower cost) is replaced now that the password is known. */
export async function upgradePasswordHash(ctx: AppContext, user: UserRow, password: string): Promise<void> {
  if (!user.password_hash || !ctx.passwords.needsRehash(user.password_hash)) return;
  // Hashed before the statement; only while the stored hash is still the old one.
  await rehashPassword(ctx.data, user.id, user.password_hash, await ctx.passwords.hash(password));
}

/** True when an E.164 phone's calling code cannot receive SMS MFA. */
export function isUnsupportedSmsRegion(phone: string | null | undefined): boolean {
  if (!phone) return false;
  const digits = `+${phone.replace(/[^\d+]/g, '').replace(/^\+/, '')}`;
  return SMS_UNSUPPORTED_CALLING_CODES.some((cc) => digits.startsWith(cc));
}

/**
 * The allow-list as a net.BlockList (IPv4 and IPv6, single addresses and CIDR blocks; an
 * IPv4-mapped IPv6 peer such as ::ffff:203.0.113.7 matches an IPv4 entry). Null when the list is
 * not a JSON array of valid entries: a corrupt list allows nobody rather than everybody.
 */
function allowListOf(allowList: string): BlockList | null {
  let list: unknown;
  try {
    list = JSON.parse(allowList);
  } catch {
    return null;
  }
  if (!Array.isArray(list)) return null;
  const blocks = new BlockList();
  for (const entry of list) {
    if (typeof entry !== 'string') return null;
    const [address = '', prefix, extra] = entry.trim().split('/');
    const family = isIPv4(address) ? 'ipv4' : isIPv6(address) ? 'ipv6' : null;
    if (!family || extra !== undefined) return null;
    if (prefix === undefined) {
      blocks.addAddress(address, family);
      continue;
    }
    const bits = /^\d{1,3}$/.test(prefix) ? Number(prefix) : -1;
    if (bits < 0 || bits > (family === 'ipv4' ? 32 : 128)) return null;
    blocks.addSubnet(address, bits, family);
  }
  return blocks;
}

/** Allow-list check: entries are IPv4 or IPv6 addresses or CIDR blocks. A NULL list allows every address. */
export function ipAllowed(allowList: string | null, rawIp: string): boolean {
  if (!allowList) return true;
  const blocks = allowListOf(allowList);
  if (!blocks) return false;
  const ip = rawIp.trim();
  if (isIPv4(ip)) return blocks.check(ip, 'ipv4');
  return isIPv6(ip) && blocks.check(ip, 'ipv6');
}
