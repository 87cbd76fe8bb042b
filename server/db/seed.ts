/**
 * The demo tenant of ../shared/DEMO-TENANT.md, exactly. Seeded into a fresh database when dev tools
 * are on (DEV_TOOLS=1, `npm start`) and restored by POST /dev/reset.
 */
import crypto from 'node:crypto';
import type { Database, Queryable } from './data.js';
import type { PasswordService } from '../crypto/passwords.js';
import type { MfaType } from '../services/users.js';
import { sha256 } from '../crypto/primitives.js';
import { DEFAULT_LANGUAGE } from '../services/lists.js';

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
  /** Encrypts TOTP secrets for storage (AppContext.seal). */
  seal: (plain: string) => string;
  /** Seed only a database without users (start-up); two instances starting together seed once. */
  onlyIfEmpty?: boolean;
  /** More demo rows, written in the same transaction once the users exist (the SSO connections: sso/demoSeed.ts). */
  also?: (t: Queryable) => Promise<unknown>;
}

const INSERT_USER = `INSERT INTO users (uid, email, first_name, last_name, user_type, state, sysadmin, password_hash,
  must_set_password, phone, mfa_required, sso_state, sso_idp_name, ip_allow_list, moved_url, trial_expires_at,
  account_manager_name, account_manager_email, bot_check_always_fails, organization_id, client_id, company_name, language,
  features, created_at, updated_at)
  VALUES (@uid, @email, @first_name, @last_name, @user_type, @state, @sysadmin, @password_hash, @must_set_password, @phone,
  @mfa_required, @sso_state, @sso_idp_name, @ip_allow_list, @moved_url, @trial_expires_at, @account_manager_name,
  @account_manager_email, @bot_check_always_fails, @organization_id, @client_id, @company_name, @language, @features, @t, @t)
  RETURNING id`;
const INSERT_MFA = 'INSERT INTO mfa_enrolments (user_id, type, position, secret, phone, created_at) VALUES (?, ?, ?, ?, ?, ?)';
const INSERT_LINK = `INSERT INTO trial_links (code_hash, status, company_name, first_name, last_name, email, language, sales_representative)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?)`;
const INSERT_INVITATION = 'INSERT INTO invitations (code_hash, email, user_id, auth_type, expires_at) VALUES (?, ?, ?, ?, ?)';
const INSERT_DIVISION = 'INSERT INTO division_activations (activation_key, division_name, activated_at) VALUES (?, ?, ?)';
const INSERT_BRANDING = `INSERT INTO branding (hostname, is_enabled, theme, browser_name, browser_enabled, login_logo, browser_icon, public_url)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?)`;

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
    if (options.onlyIfEmpty && ((await q.get<{ n: number }>('SELECT count(*) AS n FROM users'))?.n ?? 0) > 0) return false;
    await data.wipe(q);
    const ids = new Map<string, number>();
    for (const [i, u] of DEMO_USERS.entries()) {
      const userType = u.userType ?? 'TECHNICIAN';
      const row = await q.get<{ id: number }>(INSERT_USER, {
        uid: crypto.randomUUID(),
        email: u.email,
        first_name: u.firstName,
        last_name: u.lastName,
        user_type: userType,
        state: u.state ?? 'active',
        sysadmin: u.sysadmin ? 1 : 0,
        password_hash: hashed[i] ?? null,
        must_set_password: u.mustSetPassword ? 1 : 0,
        phone: u.phone ?? null,
        mfa_required: u.mfaRequired === false ? 0 : 1,
        sso_state: u.sso ?? 'NONE',
        sso_idp_name: u.sso === 'CONFIGURED' ? 'Demo IdP' : null,
        ip_allow_list: u.ipAllowList ? JSON.stringify(u.ipAllowList) : null,
        moved_url: u.movedUrl ?? null,
        trial_expires_at: u.trialExpired ? t - DAY : null,
        account_manager_name: u.trialExpired ? ACCOUNT_MANAGER.name : null,
        account_manager_email: u.trialExpired ? ACCOUNT_MANAGER.email : null,
        bot_check_always_fails: u.botCheckAlwaysFails ? 1 : 0,
        organization_id: 1,
        client_id: userType === 'END_USER' ? 101 : null,
        company_name: 'Demo Tenant',
        language: DEFAULT_LANGUAGE,
        features: JSON.stringify(DEMO_FEATURES[userType]),
        t,
      });
      if (!row) throw new Error(`seeding ${u.email} returned no id`);
      ids.set(u.email, row.id);
      for (const [pos, m] of (u.mfa ?? []).entries()) await q.run(INSERT_MFA, [row.id, m.type, pos, secrets[i]?.[pos] ?? null, m.phone ?? null, t]);
    }

    // Trial-link and invitation codes are stored as sha256, like every other code.
    await q.run(INSERT_LINK, [sha256('DEMO-TRIAL'), 'VALID', 'Demo Co', 'Dana', 'Lee', 'dana.lee@demo.test', 'en-gb', SALES_REPRESENTATIVE]);
    await q.run(INSERT_LINK, [sha256('DEMO-TRIAL-EXPIRED'), 'EXPIRED', null, null, null, null, null, SALES_REPRESENTATIVE]);
    await q.run(INSERT_LINK, [sha256('DEMO-TRIAL-USED'), 'USED', null, null, null, null, null, SALES_REPRESENTATIVE]);
    await q.run(INSERT_LINK, [sha256('DEMO-TRIAL-REPLACED'), 'REPLACED', null, null, null, null, null, SALES_REPRESENTATIVE]);

    await q.run(INSERT_INVITATION, [sha256('DEMO-INVITE-NATIVE'), 'invited@demo.test', ids.get('invited@demo.test') ?? null, 'NATIVE', t + 365 * DAY]);
    await q.run(INSERT_INVITATION, [sha256('DEMO-INVITE-SSO'), 'sso@demo.test', ids.get('sso@demo.test') ?? null, 'SSO', t + 365 * DAY]);
    await q.run(INSERT_INVITATION, [sha256('DEMO-INVITE-EXPIRED'), 'invited@demo.test', ids.get('invited@demo.test') ?? null, 'NATIVE', t - DAY]);

    // Keys are stored as sha256, like every other code (routes/activation.ts looks them up hashed).
    await q.run(INSERT_DIVISION, [sha256('DEMO-DIVISION'), 'Demo Division', null]);
    await q.run(INSERT_DIVISION, [sha256('DEMO-DIVISION-ACTIVE'), 'Demo Active Division', t - DAY]);

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
    await options.also?.(q);
    return true;
  });
}
