/**
 * The demo tenant of ../shared/DEMO-TENANT.md, exactly. Seeded into a fresh database when dev tools
 * are on (DEV_TOOLS=1, `npm start`) and restored by POST /dev/reset.
 */
import crypto from 'node:crypto';
import type { MfaType } from '../../src/generated/api-types.js';
import type { PasswordService } from '../crypto/passwords.js';
import { sha256 } from '../crypto/primitives.js';
import { hasUsers, insertUser } from './accounts.js';
import { insertActivationKey, insertInvitation, insertTrialLink, type TrialLinkRow } from './accountFlows.js';
import type { Database, Queryable } from './data.js';
import { insertEnrolment } from './mfa.js';
import { seedDemoFunnel } from './demoFunnel.js';

export const DEMO_PASSWORD = 'Demo-Passw0rd!';
export const DEMO_TOTP_SECRET = 'JBSWY3DPEHPK3PXP';
export const DEMO_PHONE = '+14155550123';
const DAY = 24 * 60 * 60 * 1000;

interface DemoUser {
  email: string;
  firstName: string;
  lastName: string;
  userType?: 'TECHNICIAN' | 'END_USER';
  state?: 'active' | 'disabled' | 'suspended' | 'inactive';
  sysadmin?: boolean;
  password?: boolean; // default true: Demo-Passw0rd!
  mustSetPassword?: boolean;
  phone?: string;
  mfaRequired?: boolean; // default true
  mfa?: { type: MfaType; secret?: string; phone?: string }[];
  sso?: 'CONFIGURED' | 'NOT_CONFIGURED';
  ipAllowList?: string[];
  movedUrl?: string;
  trialExpired?: boolean;
  botCheckAlwaysFails?: boolean;
}

export const DEMO_USERS: DemoUser[] = [
  { email: 'tech@demo.test', firstName: 'Taylor', lastName: 'Tech', mfa: [{ type: 'TOTP', secret: DEMO_TOTP_SECRET }] },
  {
    email: 'multi@demo.test',
    firstName: 'Morgan',
    lastName: 'Multi',
    phone: DEMO_PHONE,
    mfa: [
      { type: 'TOTP', secret: DEMO_TOTP_SECRET },
      { type: 'SMSOTP', phone: DEMO_PHONE },
    ],
  },
  { email: 'sms@demo.test', firstName: 'Sam', lastName: 'Sms', phone: DEMO_PHONE, mfa: [{ type: 'SMSOTP', phone: DEMO_PHONE }] },
  { email: 'duo@demo.test', firstName: 'Dee', lastName: 'Duo', mfa: [{ type: 'DUO' }] },
  { email: 'setup@demo.test', firstName: 'Sydney', lastName: 'Setup', sysadmin: true, phone: '+14155550188' },
  { email: 'setup-nophone@demo.test', firstName: 'Noel', lastName: 'Nophone' },
  { email: 'nomfa@demo.test', firstName: 'Nico', lastName: 'Nomfa', mfaRequired: false },
  { email: 'user@demo.test', firstName: 'Uma', lastName: 'User', userType: 'END_USER', mfaRequired: false },
  { email: 'sso@demo.test', firstName: 'Sasha', lastName: 'Sso', sso: 'CONFIGURED', mfaRequired: false },
  // Signs in through the demo OpenID provider: its connection is assigned by the seed's SSO part (sso/demoSeed.ts).
  { email: 'oidc@demo.test', firstName: 'Olive', lastName: 'Oidc', mfaRequired: false },
  { email: 'sso-broken@demo.test', firstName: 'Blake', lastName: 'Broken', sso: 'NOT_CONFIGURED', mfaRequired: false },
  { email: 'disabled@demo.test', firstName: 'Dana', lastName: 'Disabled', state: 'disabled', mfaRequired: false },
  { email: 'suspended@demo.test', firstName: 'Sid', lastName: 'Suspended', state: 'suspended', mfaRequired: false },
  { email: 'inactive@demo.test', firstName: 'Ira', lastName: 'Inactive', state: 'inactive', mfaRequired: false },
  { email: 'blocked-ip@demo.test', firstName: 'Bo', lastName: 'Blocked', ipAllowList: ['203.0.113.0/24'], mfaRequired: false },
  { email: 'moved@demo.test', firstName: 'Max', lastName: 'Moved', movedUrl: 'http://127.0.0.1:{PORT}/login?moved=1', mfaRequired: false },
  { email: 'expired@demo.test', firstName: 'Eli', lastName: 'Expired', trialExpired: true, mfaRequired: false },
  { email: 'newpass@demo.test', firstName: 'Nat', lastName: 'Newpass', mustSetPassword: true, mfaRequired: false },
  { email: 'sms-region@demo.test', firstName: 'Rin', lastName: 'Region', phone: '+6591234567', mfa: [{ type: 'SMSOTP', phone: '+6591234567' }] },
  { email: 'captcha-fail@demo.test', firstName: 'Cal', lastName: 'Captcha', botCheckAlwaysFails: true, mfaRequired: false },
  // The studio's people (roles in studio_people, server/routes/studio/people.ts): they sign in to /dev/studio.
  { email: 'editor@demo.test', firstName: 'Eden', lastName: 'Editor', mfaRequired: false },
  { email: 'approver@demo.test', firstName: 'Avery', lastName: 'Approver', mfaRequired: false },
  // Not a sign-in row: the account behind user invitation DEMO-INVITE-NATIVE (no password until activated).
  { email: 'invited@demo.test', firstName: 'Ivy', lastName: 'Invited', state: 'inactive', password: false, mfaRequired: false },
];

export const ACCOUNT_MANAGER = { name: 'Alex Morgan', email: 'alex.morgan@demo.test' };
export const SALES_REPRESENTATIVE = 'Sam Rivera';

/** Feature flags of the session (GET /ws/account/session features) per user type. */
export const DEMO_FEATURES: Record<'TECHNICIAN' | 'END_USER', string[]> = {
  TECHNICIAN: ['helpCenter', 'ticketTimers'],
  END_USER: ['helpCenter'],
};

/**
 * The demo password's hash per account (its own salt each), made once per process and password
 * service: /dev/reset runs before many e2e tests, and argon2id at full cost takes ~60 ms a hash.
 */
const hashCache = new WeakMap<PasswordService, Promise<(string | null)[]>>();

export interface SeedOptions {
  now?: () => number;
  /** The demo accounts' language: the product's default (services/lists.ts DEFAULT_LANGUAGE). */
  language: string;
  /** Encrypts TOTP secrets for storage (AppContext.seal). */
  seal: (plain: string) => string;
  /** Seed only a database without users (start-up); two instances starting together seed once. */
  onlyIfEmpty?: boolean;
  /** More demo rows, written in the same transaction once the users exist (the SSO connections: sso/demoSeed.ts). */
  also?: (t: Queryable) => Promise<unknown>;
}

const INSERT_BRANDING = `INSERT INTO branding (hostname, is_enabled, theme, browser_name, browser_enabled, login_logo, browser_icon, public_url)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?)`;

/** Trial links of the demo (DEMO-TENANT.md); only a valid one keeps its invitee's data. */
const unusable = (code: string, status: TrialLinkRow['status']): TrialLinkRow => ({
  code_hash: sha256(code),
  status,
  company_name: null,
  first_name: null,
  last_name: null,
  email: null,
  language: null,
  sales_representative: SALES_REPRESENTATIVE,
});

/** The demo accounts with their MFA methods (TOTP secrets sealed), on q; their ids by email. */
async function seedUsers(
  q: Queryable,
  hashed: readonly (string | null)[],
  secrets: readonly (string | null)[][],
  t: number,
  language: string,
): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  for (const [i, u] of DEMO_USERS.entries()) {
    const userType = u.userType ?? 'TECHNICIAN';
    const id = await insertUser(q, {
      uid: crypto.randomUUID(),
      email: u.email,
      firstName: u.firstName,
      lastName: u.lastName,
      userType,
      state: u.state ?? 'active',
      sysadmin: u.sysadmin === true,
      passwordHash: hashed[i] ?? null,
      mustSetPassword: u.mustSetPassword === true,
      phone: u.phone ?? null,
      mfaRequired: u.mfaRequired !== false,
      ssoState: u.sso ?? 'NONE',
      ssoIdpName: u.sso === 'CONFIGURED' ? 'Demo IdP' : null,
      ipAllowList: u.ipAllowList ?? null,
      movedUrl: u.movedUrl ?? null,
      trialExpiresAt: u.trialExpired ? t - DAY : null,
      accountManager: u.trialExpired ? ACCOUNT_MANAGER : null,
      botCheckAlwaysFails: u.botCheckAlwaysFails === true,
      organizationId: 1,
      clientId: userType === 'END_USER' ? 101 : null,
      companyName: 'Demo Tenant',
      language,
      features: DEMO_FEATURES[userType],
      createdAt: t,
    });
    ids.set(u.email, id);
    for (const [position, m] of (u.mfa ?? []).entries())
      await insertEnrolment(q, { userId: id, type: m.type, position, sealedSecret: secrets[i]?.[position] ?? null, phone: m.phone ?? null, createdAt: t });
  }
  return ids;
}

/** The demo's codes, stored as sha256 like every other code: trial links, invitations, division activation keys. */
async function seedCodes(q: Queryable, ids: Map<string, number>, t: number): Promise<void> {
  const linkData = { company_name: 'Demo Co', first_name: 'Dana', last_name: 'Lee', email: 'dana.lee@demo.test', language: 'en-gb' };
  await insertTrialLink(q, { ...unusable('DEMO-TRIAL', 'VALID'), ...linkData });
  await insertTrialLink(q, unusable('DEMO-TRIAL-EXPIRED', 'EXPIRED'));
  await insertTrialLink(q, unusable('DEMO-TRIAL-USED', 'USED'));
  await insertTrialLink(q, unusable('DEMO-TRIAL-REPLACED', 'REPLACED'));

  const invitation = (code: string, email: string, authType: 'NATIVE' | 'SSO', expiresAt: number) =>
    insertInvitation(q, { code_hash: sha256(code), email, user_id: ids.get(email) ?? null, auth_type: authType, expires_at: expiresAt });
  await invitation('DEMO-INVITE-NATIVE', 'invited@demo.test', 'NATIVE', t + 365 * DAY);
  await invitation('DEMO-INVITE-SSO', 'sso@demo.test', 'SSO', t + 365 * DAY);
  await invitation('DEMO-INVITE-EXPIRED', 'invited@demo.test', 'NATIVE', t - DAY);

  // Keys are looked up hashed (services/activation.ts).
  await insertActivationKey(q, { keyHash: sha256('DEMO-DIVISION'), divisionName: 'Demo Division' });
  await insertActivationKey(q, { keyHash: sha256('DEMO-DIVISION-ACTIVE'), divisionName: 'Demo Active Division', activatedAt: t - DAY });
}

/**
 * Wipes the data tables and seeds the demo tenant, in one transaction (the argon2 hashes are made
 * before it: a transaction awaits only its statements); false when skipped (onlyIfEmpty). Two
 * instances starting together on an empty database seed once: the second finds the users (SQLite
 * takes turns; on PostgreSQL the serializable transaction of one of them fails and runs again).
 */
export async function seedDemoTenant(data: Database, passwords: PasswordService, options: SeedOptions): Promise<boolean> {
  let hashes = hashCache.get(passwords);
  if (!hashes) hashCache.set(passwords, (hashes = Promise.all(DEMO_USERS.map((u) => (u.password === false ? null : passwords.hash(DEMO_PASSWORD))))));
  const hashed = await hashes;
  const t = (options.now ?? Date.now)();
  const seal = options.seal;
  // Sealing is synchronous, but made once here so that a retried transaction inserts the same values.
  const secrets = DEMO_USERS.map((u) => (u.mfa ?? []).map((m) => (m.secret ? seal(m.secret) : null)));
  return data.tx(async (q) => {
    if (options.onlyIfEmpty && (await hasUsers(q))) return false;
    await data.wipe(q);
    const ids = await seedUsers(q, hashed, secrets, t, options.language);
    await seedCodes(q, ids, t);

    // public_url: the base of links in emails asked for on that host ('{PORT}': the server's port).
    await q.run(INSERT_BRANDING, [
      'branded.localhost',
      1,
      'theme-four',
      'Acme IT',
      1,
      '/branding/assets/acme-logo.svg',
      '/branding/assets/acme-icon.svg',
      'http://branded.localhost:{PORT}',
    ]);
    await q.run(INSERT_BRANDING, ['closed.localhost', 0, null, null, 0, null, null, null]);
    // The example experiment and a week of its funnel (issue 38).
    await seedDemoFunnel(q, t);
    await options.also?.(q);
    return true;
  });
}
