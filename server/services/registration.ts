/**
 * Self-registration: trial links (an invite that prefills and locks the email; stored as sha256,
 * unknown ones count against the address) and the new account, created inactive with its activation
 * key and the email that carries it, in one transaction (routes/registration.ts; activation:
 * services/activation.ts).
 */
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { randomToken, sha256 } from '../crypto/primitives.js';
import { findUserByEmail, insertUser, nextOrganizationId } from '../db/accounts.js';
import { findTrialLink, markTrialLinkUsed, type TrialLinkRow } from '../db/accountFlows.js';
import { isUniqueViolation, type Queryable } from '../db/data.js';
import { activationMail, countUnknownCode, unknownCodesBlocked } from './accountFlows.js';

export const TRIAL_DAYS = 14;
const DAY = 24 * 60 * 60 * 1000;
/** The features of a self-registered account (a technician of its own new tenant). */
const REGISTERED_FEATURES = ['helpCenter', 'ticketTimers'];

/** The link of a code, counting an unknown one against the address; a number: the address must wait that many seconds. */
export async function lookUpTrialLink(ctx: AppContext, req: FastifyRequest, code: string): Promise<TrialLinkRow | undefined | number> {
  const blocked = await unknownCodesBlocked(ctx, req);
  if (blocked) return blocked;
  const link = await findTrialLink(ctx.data, sha256(code));
  if (!link) await countUnknownCode(ctx, req);
  return link;
}

export interface Registration {
  email: string;
  names: { companyName: string; firstName: string; lastName: string };
  passwordHash: string;
  phone: string | null;
  language: string;
  /** What the registration told about the business. */
  profile: object;
  /** The trial link it came with (used up with it). */
  link: TrialLinkRow | undefined;
}

/** The account, in its own new tenant, inactive until activated; with its activation email (queued on q). Its id, or undefined when the email is taken. */
async function createOn(ctx: AppContext, q: Queryable, req: FastifyRequest, r: Registration): Promise<number | undefined> {
  // Re-checked inside the transaction: two registrations of one email race on the UNIQUE index.
  if (await findUserByEmail(q, r.email)) return undefined;
  const t = ctx.now();
  const id = await insertUser(q, {
    uid: randomToken(16),
    email: r.email,
    firstName: r.names.firstName,
    lastName: r.names.lastName,
    userType: 'TECHNICIAN',
    state: 'inactive',
    sysadmin: true,
    passwordHash: r.passwordHash,
    phone: r.phone,
    mfaRequired: true,
    trialExpiresAt: t + TRIAL_DAYS * DAY,
    organizationId: await nextOrganizationId(q),
    companyName: r.names.companyName,
    language: r.language,
    features: REGISTERED_FEATURES,
    registrationProfile: r.profile,
    createdAt: t,
  });
  // Used: the link keeps no invitee data (its holder sees the representative's name only).
  if (r.link) await markTrialLinkUsed(q, r.link.code_hash);
  const user = { id, email: r.email, company_name: r.names.companyName, language: r.language };
  // The account, its activation key and the email that carries it commit together (or none of them).
  await ctx.outbox.send(q, { channel: 'email', ...(await activationMail(ctx, q, req, user, 'registration')) });
  return id;
}

/** Creates the registered account; undefined when an account of the email exists (or was created by a concurrent registration). */
export async function registerAccount(ctx: AppContext, req: FastifyRequest, registration: Registration): Promise<number | undefined> {
  try {
    return await ctx.data.tx((q) => createOn(ctx, q, req, registration));
  } catch (error) {
    // The other registration of this address committed first (the UNIQUE index caught the race).
    if (!isUniqueViolation(error)) throw error;
    return undefined;
  }
}
