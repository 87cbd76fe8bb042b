/** Users and MFA enrolments: row types and look-ups. */
import type { Db } from '../db/index.js';
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

export function findUserByEmail(db: Db, email: string): UserRow | undefined {
  return db.prepare('SELECT * FROM users WHERE email = ?').get(normalizeEmail(email)) as UserRow | undefined;
}

export function findUserById(db: Db, id: number): UserRow | undefined {
  return db.prepare('SELECT * FROM users WHERE id = ?').get(id) as UserRow | undefined;
}

export function enrolments(db: Db, userId: number): EnrolmentRow[] {
  return db.prepare('SELECT * FROM mfa_enrolments WHERE user_id = ? ORDER BY position').all(userId) as EnrolmentRow[];
}

/** True when an E.164 phone's calling code cannot receive SMS MFA. */
export function isUnsupportedSmsRegion(phone: string | null | undefined): boolean {
  if (!phone) return false;
  const digits = `+${phone.replace(/[^\d+]/g, '').replace(/^\+/, '')}`;
  return SMS_UNSUPPORTED_CALLING_CODES.some((cc) => digits.startsWith(cc));
}

function ipv4ToInt(ip: string): number | null {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(ip);
  if (!m) return null;
  const parts = m.slice(1).map(Number);
  if (parts.some((p) => p > 255)) return null;
  return (((parts[0]! << 24) >>> 0) + (parts[1]! << 16) + (parts[2]! << 8) + parts[3]!) >>> 0;
}

/** Allow-list check: entries are exact IPs or IPv4 CIDRs. A NULL list allows every address. */
export function ipAllowed(allowList: string | null, rawIp: string): boolean {
  if (!allowList) return true;
  let list: unknown;
  try {
    list = JSON.parse(allowList);
  } catch {
    return false;
  }
  if (!Array.isArray(list)) return false;
  const ip = rawIp.replace(/^::ffff:/, '');
  const ipInt = ipv4ToInt(ip);
  return list.some((entry) => {
    if (typeof entry !== 'string') return false;
    if (!entry.includes('/')) return entry === ip;
    const [net, bitsStr] = entry.split('/') as [string, string];
    const netInt = ipv4ToInt(net);
    const bits = Number(bitsStr);
    if (ipInt === null || netInt === null || !(bits >= 0 && bits <= 32)) return false;
    const mask = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0;
    return (ipInt & mask) >>> 0 === (netInt & mask) >>> 0;
  });
}
