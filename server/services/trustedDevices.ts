/**
 * Trusted browsers: "Don't ask again on this device" at /mfa. When the visitor ticks it
 * (mfaTrustDevice marks the login token) and the second factor then succeeds, the answer that starts
 * the session also sets `__Host-fd_trust`: HttpOnly, Secure, SameSite=Strict, Path=/, a signed token
 * (services/signedTokens.ts) naming the account and a random device secret whose sha256 is a row of
 * trusted_devices. A later sign-in of that account from that browser skips the second factor until
 * the row expires (the tenant's number of days, tenant_settings.trusted_device_days, default 30; 0
 * turns the feature off) or is revoked: a password change, "sign out everywhere" or any MFA change
 * revokes every row of the account (services/revocation.ts, run in the caller's transaction). One
 * browser trusts one account at a time (a new trust replaces the cookie).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import type { Queryable } from '../db/data.js';
import { randomToken, sha256 } from '../crypto/primitives.js';
import type { UserRow } from './users.js';

export const TRUST_COOKIE = '__Host-fd_trust';
export const DEFAULT_TRUSTED_DEVICE_DAYS = 30;
export const MAX_TRUSTED_DEVICE_DAYS = 365;
const DAY_MS = 24 * 60 * 60 * 1000;
const PURPOSE = 'trusted-device';

/** Revokes every trusted browser of an account (values: now, user id). Portable SQL for either engine. */
export const REVOKE_TRUSTED_DEVICES = 'UPDATE trusted_devices SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL';

export async function revokeTrustedDevices(q: Queryable, userId: number, now: number): Promise<number> {
  return (await q.run(REVOKE_TRUSTED_DEVICES, [now, userId])).changes;
}

/** The tenant's number of days (0: trusted browsers are off). */
export async function trustedDeviceDays(q: Queryable, organizationId: number | null): Promise<number> {
  if (organizationId === null) return DEFAULT_TRUSTED_DEVICE_DAYS;
  const row = await q.get<{ days: number }>('SELECT trusted_device_days AS days FROM tenant_settings WHERE organization_id = ?', [organizationId]);
  return row?.days ?? DEFAULT_TRUSTED_DEVICE_DAYS;
}

/** Sets the tenant's number of days (npm run admin -- tenant-settings). */
export async function setTrustedDeviceDays(q: Queryable, organizationId: number, days: number, now: number): Promise<void> {
  await q.run(
    `INSERT INTO tenant_settings (organization_id, trusted_device_days, updated_at) VALUES (?, ?, ?)
     ON CONFLICT (organization_id) DO UPDATE SET trusted_device_days = excluded.trusted_device_days, updated_at = excluded.updated_at`,
    [organizationId, days, now],
  );
}

/** Records the visitor's choice on the open login token (the second factor is still to come). */
export async function markTrustRequest(q: Queryable, tokenHash: string, trust: boolean): Promise<void> {
  await q.run('UPDATE login_tokens SET trust_device = ? WHERE token_hash = ? AND used_at IS NULL', [trust ? 1 : 0, tokenHash]);
}

/** __Host-: Secure, Path=/ and no Domain (browsers treat http://localhost as secure, so the demo keeps it too). */
const COOKIE = { httpOnly: true, secure: true, sameSite: 'strict', path: '/' } as const;

/**
 * After a second factor succeeded for this login token: when the visitor asked for it and the tenant
 * allows it, this browser becomes trusted for the account. Call it once the session started.
 */
export async function trustBrowserIfAsked(ctx: AppContext, req: FastifyRequest, reply: FastifyReply, tokenHash: string, user: UserRow): Promise<boolean> {
  const asked = await ctx.data.get<{ trust_device: number }>('SELECT trust_device FROM login_tokens WHERE token_hash = ?', [tokenHash]);
  if (asked?.trust_device !== 1) return false;
  const days = await trustedDeviceDays(ctx.data, user.organization_id);
  if (days <= 0) return false;
  const secret = randomToken(32);
  const t = ctx.now();
  await ctx.data.run('INSERT INTO trusted_devices (device_hash, user_id, created_at, expires_at, user_agent) VALUES (?, ?, ?, ?, ?)', [
    sha256(secret),
    user.id,
    t,
    t + days * DAY_MS,
    String(req.headers['user-agent'] ?? '').slice(0, 300),
  ]);
  reply.setCookie(TRUST_COOKIE, ctx.tokens.sign(PURPOSE, days * DAY_MS, { uid: user.id, d: secret }), { ...COOKIE, maxAge: days * 24 * 60 * 60 });
  return true;
}

/**
 * Whether this browser is trusted for the account: a valid signed cookie for this user whose row is
 * neither revoked nor expired, while the tenant has the feature on. A cookie that no longer counts is
 * cleared on the reply.
 */
export async function browserTrusted(ctx: AppContext, req: FastifyRequest, reply: FastifyReply, user: UserRow): Promise<boolean> {
  const raw = req.cookies?.[TRUST_COOKIE];
  if (typeof raw !== 'string' || raw.length === 0) return false;
  const payload = ctx.tokens.read(raw, PURPOSE);
  // Another account's cookie is kept: that account may still sign in from here.
  if (payload && payload.uid !== user.id) return false;
  const secret = typeof payload?.d === 'string' ? payload.d : undefined;
  const row = secret
    ? await ctx.data.get<{ id: number }>('SELECT id FROM trusted_devices WHERE device_hash = ? AND user_id = ? AND revoked_at IS NULL AND expires_at > ?', [
        sha256(secret),
        user.id,
        ctx.now(),
      ])
    : undefined;
  // It stands for a second factor the account has: without one (set up again after a reset) it skips nothing.
  const ok =
    row !== undefined &&
    (await trustedDeviceDays(ctx.data, user.organization_id)) > 0 &&
    (await ctx.data.get('SELECT id FROM mfa_enrolments WHERE user_id = ? LIMIT 1', [user.id])) !== undefined;
  if (!ok) reply.clearCookie(TRUST_COOKIE, COOKIE);
  return ok;
}
