/**
 * What `npm run admin` does, on the async data layer (so on SQLite and PostgreSQL alike): create a
 * tenant (an organisation with its first administrator and, optionally, its branded host), create a
 * user, reset a user's MFA, unlock an account. Each command checks its input, runs in one
 * transaction, and returns what the operator should read; a refusal is an AdminError with an exit code.
 */
import crypto from 'node:crypto';
import type { parseArgs } from 'node:util';
import { email as isEmail, hostname as isHostname, meetsPasswordPolicy } from '@frontdoor/validators';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { ConfigError, parsePublicUrl } from '../config.js';
import type { Database, Queryable } from '../db/data.js';
import { isUniqueViolation } from '../db/data.js';
import { findAccount } from '../db/accounts.js';
import { clearCounters, clearCountersByPrefix, clearSessionMfaFailures, removeSecondFactors } from '../db/accountReset.js';
import { insertBranding, isBrandedHost } from '../db/branding.js';
import { removePasskeys } from '../db/passkeys.js';
import { insertTenantUser, nextOrganizationId, organizationName } from '../db/tenants.js';
import { DEMO_FEATURES } from '../db/seed.js';
import { DEFAULT_LANGUAGE, LANGUAGES } from '../services/lists.js';
import { PASSKEY_BUDGET_SCOPES } from '../services/passkeyBudget.js';
import type { PasswordService } from '../crypto/passwords.js';
import { revokeOnMfaChange } from '../services/revocation.js';
import { normalizeEmail } from '../db/accounts.js';

/** Exit codes: 2 the command line is wrong, 3 the target is missing or taken. */
export const EXIT = { ok: 0, failed: 1, usage: 2, conflict: 3 } as const;

export class AdminError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
    this.name = 'AdminError';
  }
}

const usage = (message: string) => new AdminError(message, EXIT.usage);
const conflict = (message: string) => new AdminError(message, EXIT.conflict);

export type Options = NonNullable<Parameters<typeof parseArgs>[0]>['options'];

/** One command of `npm run admin` (main.ts lists them; admin/sso.ts adds the SSO ones). */
export interface AdminCommand {
  summary: string;
  usage: string;
  options: Options;
  /** false: the database is not migrated before run (migrate itself, which reports and may only look). */
  migrateFirst?: false;
  /** Its actions (`tenants list`): the word after the command, given to run as values.action. */
  actions?: readonly string[];
  run(ctx: AdminContext, values: Record<string, string | boolean | undefined>, out: (line: string) => void): Promise<void>;
}

export interface AdminContext {
  db: Database;
  passwords: PasswordService;
  now: () => number;
  /** The environment (APP_SECRET seals SSO keys; PUBLIC_URL names the SP's addresses): admin/sso.ts. */
  env?: NodeJS.ProcessEnv;
}

export interface UserInput {
  email: string;
  firstName?: string | undefined;
  lastName?: string | undefined;
  userType?: string | undefined;
  sysadmin?: boolean | undefined;
  phone?: string | undefined;
  language?: string | undefined;
  /** Off: no second factor asked (default on: set up at first sign-in). */
  mfa?: boolean | undefined;
  /** A chosen password (e.g. from stdin); without one a temporary password is made and must be changed at first sign-in. */
  password?: string | undefined;
}

export interface CreatedUser {
  id: number;
  email: string;
  organizationId: number;
  /** Shown once: the temporary password (absent when the operator gave one). */
  temporaryPassword?: string;
}

function checkEmail(value: string): string {
  const email = normalizeEmail(value);
  if (!isEmail(email)) throw usage(`--email must be an email address, not ${JSON.stringify(value)}`);
  return email;
}

function checkName(value: string | undefined, flag: string, max: number): string | null {
  if (value === undefined) return null;
  const v = value.trim();
  if (v === '' || [...v].length > max) throw usage(`${flag} must be 1 to ${max} characters`);
  return v;
}

/** A password that meets the policy: 4 groups of 5 from letters and digits, joined by '-' (about 119 bits). */
export function temporaryPassword(): string {
  const alphabet = 'abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  for (;;) {
    const groups = Array.from({ length: 4 }, () => Array.from({ length: 5 }, () => alphabet[crypto.randomInt(alphabet.length)]).join(''));
    const candidate = groups.join('-');
    if (meetsPasswordPolicy(candidate) && /\d/.test(candidate) && /[A-Z]/.test(candidate) && /[a-z]/.test(candidate)) return candidate;
  }
}

/** Checks a user's fields before anything is hashed or written. */
function checkUser(input: UserInput) {
  const email = checkEmail(input.email);
  const userType = input.userType ?? 'TECHNICIAN';
  if (userType !== 'TECHNICIAN' && userType !== 'END_USER') throw usage(`--type must be TECHNICIAN or END_USER, not ${JSON.stringify(userType)}`);
  let phone: string | null = null;
  if (input.phone !== undefined) {
    const parsed = parsePhoneNumberFromString(input.phone);
    if (!parsed?.isValid()) throw usage(`--phone must be a phone number in international form (+14155550123), not ${JSON.stringify(input.phone)}`);
    phone = parsed.number;
  }
  const language = input.language ?? DEFAULT_LANGUAGE;
  if (!LANGUAGES.includes(language)) throw usage(`--language must be one of ${LANGUAGES.join(', ')}`);
  if (input.password !== undefined && !meetsPasswordPolicy(input.password)) {
    throw usage('the password does not meet the policy (length and character classes of docs/validators.md passwordPolicy)');
  }
  return {
    email,
    userType,
    phone,
    language,
    firstName: checkName(input.firstName, '--first-name', 150),
    lastName: checkName(input.lastName, '--last-name', 150),
  };
}

async function insertUser(
  t: Queryable,
  ctx: AdminContext,
  fields: ReturnType<typeof checkUser>,
  input: UserInput,
  organization: { id: number; name: string | null },
  hash: string,
  mustSetPassword: boolean,
): Promise<number> {
  const user = {
    ...fields,
    uid: crypto.randomUUID(),
    sysadmin: input.sysadmin === true,
    passwordHash: hash,
    mustSetPassword,
    mfaRequired: input.mfa !== false,
    organizationId: organization.id,
    companyName: organization.name,
    features: JSON.stringify(DEMO_FEATURES[fields.userType as 'TECHNICIAN' | 'END_USER']),
  };
  try {
    return await insertTenantUser(t, user, ctx.now());
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(`a user with the email ${fields.email} exists already`);
    throw error;
  }
}

async function passwordFor(ctx: AdminContext, input: UserInput): Promise<{ hash: string; temporary?: string }> {
  if (input.password !== undefined) return { hash: await ctx.passwords.hash(input.password) };
  const temporary = temporaryPassword();
  return { hash: await ctx.passwords.hash(temporary), temporary };
}

export interface TenantInput {
  name: string;
  admin: UserInput;
  /** A branded host name (signin.acme.com): its branding row, with the tenant's name and public URL. */
  host?: string | undefined;
  publicUrl?: string | undefined;
  theme?: string | undefined;
  logo?: string | undefined;
  icon?: string | undefined;
}

export interface CreatedTenant {
  organizationId: number;
  name: string;
  admin: CreatedUser;
  host?: { hostname: string; publicUrl: string | null };
}

function checkAssetUrl(value: string | undefined, flag: string): string | null {
  if (value === undefined) return null;
  if (/^\/[^/\\]/.test(value) && !/[\s"'<>]/.test(value)) return value;
  try {
    return parsePublicUrl(value, flag);
  } catch {
    throw usage(`${flag} must be a path on this server (/branding/assets/logo.svg) or an http(s) URL, not ${JSON.stringify(value)}`);
  }
}

export async function createTenant(ctx: AdminContext, input: TenantInput): Promise<CreatedTenant> {
  if (!input.name.trim()) throw usage('--name is required: the organisation');
  const name = checkName(input.name, '--name', 1000) as string;
  const fields = checkUser(input.admin);
  let hostname: string | null = null;
  let publicUrl: string | null = null;
  if (input.host !== undefined) {
    hostname = input.host.trim().toLowerCase();
    if (!isHostname(hostname)) throw usage(`--host must be a host name such as signin.acme.com, not ${JSON.stringify(input.host)}`);
    try {
      publicUrl = parsePublicUrl(input.publicUrl ?? `https://${hostname}`, '--public-url');
    } catch (error) {
      if (error instanceof ConfigError) throw usage(error.message);
      throw error;
    }
  } else if (input.publicUrl !== undefined || input.theme !== undefined || input.logo !== undefined || input.icon !== undefined) {
    throw usage('--public-url, --theme, --logo and --icon belong to a branded host: add --host');
  }
  if (input.theme !== undefined && !/^theme-[a-z0-9-]{1,40}$/.test(input.theme))
    throw usage(`--theme must name a theme (theme-one … theme-six, theme-ninja-blue), not ${JSON.stringify(input.theme)}`);
  const logo = checkAssetUrl(input.logo, '--logo');
  const icon = checkAssetUrl(input.icon, '--icon');
  const password = await passwordFor(ctx, input.admin);

  return ctx.db.tx(async (t) => {
    if (hostname && (await isBrandedHost(t, hostname))) throw conflict(`the host ${hostname} is branded already`);
    // The next organisation number, as registration allocates it (serializable: two at once cannot get one number).
    const organization = { id: await nextOrganizationId(t), name };
    const id = await insertUser(t, ctx, fields, { ...input.admin, sysadmin: true }, organization, password.hash, password.temporary !== undefined);
    if (hostname) {
      await insertBranding(t, {
        hostname,
        is_enabled: 1,
        theme: input.theme ?? null,
        browser_name: name,
        browser_enabled: 1,
        login_logo: logo,
        browser_icon: icon,
        public_url: publicUrl,
      });
    }
    return {
      organizationId: organization.id,
      name,
      admin: { id, email: fields.email, organizationId: organization.id, ...(password.temporary ? { temporaryPassword: password.temporary } : {}) },
      ...(hostname ? { host: { hostname, publicUrl } } : {}),
    };
  });
}

export async function createUser(ctx: AdminContext, input: UserInput & { organizationId: number }): Promise<CreatedUser> {
  if (!Number.isSafeInteger(input.organizationId) || input.organizationId < 1)
    throw usage('--organization must be an organisation number (create-tenant prints it)');
  const fields = checkUser(input);
  const password = await passwordFor(ctx, input);
  return ctx.db.tx(async (t) => {
    const org = await organizationName(t, input.organizationId);
    if (!org) throw conflict(`there is no organisation ${input.organizationId} (create-tenant makes one)`);
    const id = await insertUser(t, ctx, fields, input, { id: input.organizationId, name: org.name }, password.hash, password.temporary !== undefined);
    return { id, email: fields.email, organizationId: input.organizationId, ...(password.temporary ? { temporaryPassword: password.temporary } : {}) };
  });
}

export interface MfaReset {
  email: string;
  /** MFA methods removed. */
  methods: number;
  /** Passkeys removed (each signs in alone, skipping MFA and its set-up). */
  passkeys: number;
  /** Sign-ins waiting for a code (login and set-up tokens) ended. */
  pendingSignIns: number;
}

/**
 * Removes every MFA method and every passkey of the account (with the sessions the passkeys made) and
 * ends its half-done sign-ins: the next sign-in sets MFA up again, and no passkey skips that.
 */
export async function resetMfa(ctx: AdminContext, emailInput: string): Promise<MfaReset> {
  const email = checkEmail(emailInput);
  return ctx.db.tx(async (t) => {
    const user = await findAccount(t, email);
    if (!user) throw conflict(`there is no user with the email ${email}`);
    // The ways past the old methods go with them: recovery codes (removeSecondFactors) and trusted browsers (issue 28).
    const { methods, pendingSignIns } = await removeSecondFactors(t, user.id, ctx.now());
    const passkeys = (await removePasskeys(t, user.id, { all: true })).length;
    await revokeOnMfaChange(t, user.id, ctx.now());
    return { email: user.email, methods, passkeys, pendingSignIns };
  });
}

export interface Unlock {
  email: string;
  accountExists: boolean;
  /** Counter rows removed (failed sign-ins and resets, per address too, wrong codes, texts). */
  counters: number;
}

/**
 * Clears the failure budgets of an account (server/services/limits.ts scopes: login, reset, their
 * per-address pairs, wrong codes, texts, refused passkeys) and its sessions' Verify-MFA tries. Unknown emails are
 * counted too (so counting reveals nothing), so their counters are cleared as well.
 */
export async function unlock(ctx: AdminContext, emailInput: string): Promise<Unlock> {
  const email = checkEmail(emailInput);
  const prefix = `${email}\n`;
  return ctx.db.tx(async (t) => {
    const user = await findAccount(t, email);
    let counters = await clearCounters(t, ['login', 'reset'], email);
    counters += await clearCountersByPrefix(t, ['login-addr', 'reset-addr'], prefix);
    if (user) {
      counters += await clearCounters(t, ['code', 'text-account', PASSKEY_BUDGET_SCOPES.account], String(user.id));
      counters += await clearCountersByPrefix(t, [PASSKEY_BUDGET_SCOPES.credential], PASSKEY_BUDGET_SCOPES.credentialPrefix(user.id));
      await clearSessionMfaFailures(t, user.id);
    }
    if (!user && counters === 0) throw conflict(`there is no user with the email ${email}, and nothing is counted against it`);
    return { email: user?.email ?? email, accountExists: user !== undefined, counters };
  });
}
