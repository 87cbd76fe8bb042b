import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Person, SessionAnswer } from '../../../catalogue/studio-contract.js';
import type { AppContext } from '../../context.js';
import { addStudioPeople, studioRole } from '../../db/studioPeople.js';
import { apiError } from '../../errors.js';
import { enrolments } from '../../db/mfa.js';
import type { UserRow } from '../../db/accounts.js';

/**
 * The studio's people: accounts of the tenant with a studio role (server/db/studioPeople.ts): an
 * editor drafts changes and asks for a review; an approver approves or sends back the changes of
 * others (nobody approves their own) and rolls back.
 *
 * They sign in where everyone signs in: the product's sign-in page, which comes back to the studio
 * (SIGN_IN_PATH). So the studio has the product's limits (failures per account and per address an
 * hour, the bot check after three: services/attempts.ts — nobody locks an editor out from afar), its
 * second factor (TOTP, SMS, Duo, security keys, passkeys, trusted browsers, recovery codes), its
 * account checks and its session (services/sessions.ts: idle and absolute time-outs, ended by a
 * password reset or "sign out everywhere"). The studio keeps no password, session or counter of its own.
 *
 * In production (NODE_ENV or APP_ENV production) only an account whose sign-in asks for a second factor
 * enters (hasSecondFactor); in demo mode the demo's people, who have none, enter with their password
 * and the studio says so.
 */

/** The demo tenant's studio people (DEMO-TENANT.md, "studio people"): seeded in demo mode. */
export const DEMO_PEOPLE: readonly Person[] = [
  { email: 'editor@demo.test', role: 'editor' },
  { email: 'approver@demo.test', role: 'approver' },
];

export const STUDIO_PATH = '/dev/studio';
/** The product's sign-in page, coming back to the studio (SPEC §2 return_to). */
export const SIGN_IN_PATH = `/login?return_to=${encodeURIComponent(STUDIO_PATH)}`;

type Refusal = NonNullable<SessionAnswer['refused']>['reason'];

/** Who a request is for the studio: a person, or why not (nobody signed in, or an account it does not admit). */
export type Entry = { person: Person; secondFactor: boolean } | { refused: 'SIGN_IN_REQUIRED' } | { refused: Refusal; email: string };

export type PeopleContext = Pick<AppContext, 'data' | 'sessions' | 'config' | 'now'>;

/**
 * Whether every sign-in of the account asks for a second factor: the product asks for one when MFA is
 * required (services/signIn.ts afterPassword) and the account has a method; a single sign-on account's
 * factors are its identity provider's, which this server cannot see.
 */
export async function hasSecondFactor(ctx: PeopleContext, user: UserRow): Promise<boolean> {
  if (user.mfa_required !== 1 || user.sso_state !== 'NONE') return false;
  return (await enrolments(ctx.data, user.id)).length > 0;
}

export const isProduction = (config: AppContext['config']) => config.nodeEnv === 'production' || config.appEnv === 'production';

export function createPeople(ctx: PeopleContext) {
  const production = isProduction(ctx.config);
  return {
    production,
    /** Gives the demo's people their roles (kept when a role was changed by hand). */
    seedDemo: () => addStudioPeople(ctx.data, DEMO_PEOPLE, ctx.now()),

    async entry(req: FastifyRequest): Promise<Entry> {
      const session = await ctx.sessions.current(req);
      if (!session) return { refused: 'SIGN_IN_REQUIRED' };
      const { user } = session;
      const role = await studioRole(ctx.data, user.email);
      if (!role) return { refused: 'NO_STUDIO_ROLE', email: user.email };
      const secondFactor = await hasSecondFactor(ctx, user);
      if (!secondFactor && production) return { refused: 'SECOND_FACTOR_REQUIRED', email: user.email };
      return { person: { email: user.email, role }, secondFactor };
    },

    /** The studio's sign-out is the product's: it ends the session of this browser. */
    async signOut(req: FastifyRequest, reply: FastifyReply): Promise<void> {
      await ctx.sessions.end(req, reply, false);
    },
  };
}

export type People = ReturnType<typeof createPeople>;

/** The answer of GET /dev/studio/api/me for an entry. */
export function sessionAnswer(entry: Entry, production: boolean): SessionAnswer {
  const common = { signIn: SIGN_IN_PATH, demo: !production };
  if ('person' in entry) return { ...common, person: entry.person, secondFactor: entry.secondFactor };
  if (entry.refused === 'SIGN_IN_REQUIRED') return { ...common, person: null };
  return { ...common, person: null, refused: { email: entry.email, reason: entry.refused } };
}

const REFUSALS: Record<Exclude<Entry, { person: Person }>['refused'], { status: number; message: string }> = {
  SIGN_IN_REQUIRED: { status: 401, message: `Sign in at ${SIGN_IN_PATH} as one of the studio's people (an editor or an approver).` },
  NO_STUDIO_ROLE: { status: 403, message: 'The signed-in account has no studio role.' },
  SECOND_FACTOR_REQUIRED: {
    status: 403,
    message: 'The studio needs an account whose sign-in asks for a second factor (MFA required and set up).',
  },
};

/** The signed-in person of a request, or the refusal sent (the studio then shows its sign-in page). */
export async function signedIn(people: People, req: FastifyRequest, reply: FastifyReply): Promise<Person | undefined> {
  const entry = await people.entry(req);
  if ('person' in entry) return entry.person;
  const refusal = REFUSALS[entry.refused];
  void apiError(reply, refusal.status, entry.refused, refusal.message);
  return undefined;
}
