/** Users and MFA enrolments: row types and look-ups. */
import { BlockList, isIPv4, isIPv6 } from 'node:net';
import type { Queryable } from '../db/data.js';
import type { MfaType as ContractMfaType } from '../../src/generated/api-types.js';
import { MFA_METHODS, SMS_UNSUPPORTED_CALLING_CODES } from './lists.js';

export type MfaType = ContractMfaType;
export const ALL_MFA_TYPES = MFA_METHODS as readonly MfaType[];

export interface UserRow {
  id: number;
  uid: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  user_type: 'TECHNICIAN' | 'END_USER';
  state: 'active' | 'disabled' | 'suspended' | 'inactive';
  sysadmin: number;
  password_hash: string | null;
  must_set_password: number;
  phone: string | null;
  mfa_required: number;
  sso_state: 'NONE' | 'CONFIGURED' | 'NOT_CONFIGURED';
  sso_idp_name: string | null;
  ip_allow_list: string | null;
  moved_url: string | null;
  trial_expires_at: number | null;
  account_manager_name: string | null;
  account_manager_email: string | null;
  bot_check_always_fails: number;
  organization_id: number | null;
  client_id: number | null;
  company_name: string | null;
  language: string;
  features: string;
}

export interface EnrolmentRow {
  id: number;
  user_id: number;
  type: MfaType;
  position: number;
  secret: string | null;
  phone: string | null;
}

export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

export function findUserByEmail(q: Queryable, email: string): Promise<UserRow | undefined> {
  return q.get<UserRow>('SELECT * FROM users WHERE email = ?', [normalizeEmail(email)]);
}

export function findUserById(q: Queryable, id: number): Promise<UserRow | undefined> {
  return q.get<UserRow>('SELECT * FROM users WHERE id = ?', [id]);
}

/** The normalised email a request names and its account, if any (an empty email finds none). */
export async function accountOf(q: Queryable, rawEmail: string): Promise<{ email: string; user: UserRow | undefined }> {
  const email = normalizeEmail(rawEmail);
  return { email, user: email ? await findUserByEmail(q, email) : undefined };
}

export function enrolments(q: Queryable, userId: number): Promise<EnrolmentRow[]> {
  return q.all<EnrolmentRow>('SELECT * FROM mfa_enrolments WHERE user_id = ? ORDER BY position', [userId]);
}

/** Credential ids of the user's security keys (WebAuthn allow / exclude lists). */
export async function webAuthnCredentials(q: Queryable, userId: number): Promise<string[]> {
  const rows = await q.all<{ credential_id: string }>(
    "SELECT credential_id FROM mfa_enrolments WHERE user_id = ? AND type = 'U2F_TOKEN' AND credential_id IS NOT NULL ORDER BY position",
    [userId],
  );
  return rows.map((r) => r.credential_id);
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
