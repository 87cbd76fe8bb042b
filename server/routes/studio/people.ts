import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Person, StudioRole } from '../../../catalogue/studio-contract.js';
import type { Database } from '../../db/data.js';
import { apiError } from '../../errors.js';

/**
 * The studio's people: an account of the tenant (users.email, its own password) with a studio role
 * (studio_people): an editor drafts changes and asks for a review; an approver approves or sends
 * back the changes of others (nobody approves their own). A sign-in gives an HttpOnly, SameSite=Strict
 * cookie holding a random token; the database keeps only its sha256, so every instance knows the
 * session. Failed sign-ins are counted per email in the database too.
 */
export const STUDIO_ROLES: readonly StudioRole[] = ['editor', 'approver'];

/** The demo tenant's studio people (DEMO-TENANT.md, "studio people"): seeded in demo mode. */
export const DEMO_PEOPLE: readonly Person[] = [
  { email: 'editor@demo.test', role: 'editor' },
  { email: 'approver@demo.test', role: 'approver' },
];

export const STUDIO_COOKIE = 'fd_studio';
const SESSION_MS = 8 * 60 * 60 * 1000;
/** Failed sign-ins of one email within the window, after which its sign-ins are refused until the window passes. */
export const SIGN_IN_LIMIT = { failures: 5, windowMs: 15 * 60 * 1000 };

export interface PeopleDeps {
  data: Database;
  verifyPassword(password: string, stored: string | null | undefined): Promise<boolean>;
  now(): number;
}

export type SignIn = { person: Person; token: string } | { refused: 'credentials' | 'locked' };

const sha256 = (value: string) => crypto.createHash('sha256').update(value).digest('hex');
const isRole = (value: unknown): value is StudioRole => STUDIO_ROLES.includes(value as StudioRole);

export function createPeople({ data, verifyPassword, now }: PeopleDeps) {
  return {
    /** Gives the demo's people their roles (kept when a role was changed by hand). */
    async seedDemo(): Promise<void> {
      for (const person of DEMO_PEOPLE)
        await data.run('INSERT INTO studio_people (email, role, created_at) VALUES (?, ?, ?) ON CONFLICT (email) DO NOTHING', [
          person.email,
          person.role,
          now(),
        ]);
    },

    async signIn(emailInput: string, password: string): Promise<SignIn> {
      const email = emailInput.trim().toLowerCase();
      const since = now() - SIGN_IN_LIMIT.windowMs;
      const failures = await data.get<{ n: number }>('SELECT count(*) AS n FROM studio_sign_in_failures WHERE email = ? AND at > ?', [email, since]);
      if ((failures?.n ?? 0) >= SIGN_IN_LIMIT.failures) return { refused: 'locked' };
      const account = await data.get<{ password_hash: string | null; role: string | null }>(
        `SELECT u.password_hash, p.role FROM users u LEFT JOIN studio_people p ON p.email = u.email WHERE u.email = ? AND u.state = 'active'`,
        [email],
      );
      // The hash is checked (or a dummy one, same time) whether or not the account exists or has a role.
      const passwordOk = await verifyPassword(password, account?.password_hash);
      if (!passwordOk || !isRole(account?.role)) {
        await data.run('INSERT INTO studio_sign_in_failures (email, at) VALUES (?, ?)', [email, now()]);
        await data.run('DELETE FROM studio_sign_in_failures WHERE at <= ?', [since]);
        return { refused: 'credentials' };
      }
      const token = crypto.randomBytes(32).toString('base64url');
      await data.run('INSERT INTO studio_sessions (token_hash, email, created_at, expires_at) VALUES (?, ?, ?, ?)', [
        sha256(token),
        email,
        now(),
        now() + SESSION_MS,
      ]);
      await data.run('DELETE FROM studio_sessions WHERE expires_at <= ?', [now()]);
      return { person: { email, role: account.role }, token };
    },

    async personOf(token: string | undefined): Promise<Person | undefined> {
      if (!token) return undefined;
      const row = await data.get<{ email: string; role: string }>(
        'SELECT p.email, p.role FROM studio_sessions s JOIN studio_people p ON p.email = s.email WHERE s.token_hash = ? AND s.expires_at > ?',
        [sha256(token), now()],
      );
      return row && isRole(row.role) ? { email: row.email, role: row.role } : undefined;
    },

    async signOut(token: string | undefined): Promise<void> {
      if (token) await data.run('DELETE FROM studio_sessions WHERE token_hash = ?', [sha256(token)]);
    },
  };
}

export type People = ReturnType<typeof createPeople>;

/** The studio cookie's token (the studio parses its one cookie itself: it also runs without @fastify/cookie). */
export function studioToken(req: FastifyRequest): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === STUDIO_COOKIE) return value.join('=') || undefined;
  }
  return undefined;
}

export function sessionCookie(token: string, secure: boolean): string {
  return `${STUDIO_COOKIE}=${token}; Path=/dev/studio; HttpOnly; SameSite=Strict; Max-Age=${SESSION_MS / 1000}${secure ? '; Secure' : ''}`;
}

export const clearedCookie = (secure: boolean) => `${STUDIO_COOKIE}=; Path=/dev/studio; HttpOnly; SameSite=Strict; Max-Age=0${secure ? '; Secure' : ''}`;

/** The signed-in person of a request, or the 401 sent (the studio then shows its sign-in form). */
export async function signedIn(people: People, req: FastifyRequest, reply: FastifyReply): Promise<Person | undefined> {
  const person = await people.personOf(studioToken(req));
  if (!person) void apiError(reply, 401, 'SIGN_IN_REQUIRED', 'Sign in to the studio as one of its people (an editor or an approver).');
  return person;
}
