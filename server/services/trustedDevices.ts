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
import { hasEnrolment } from '../db/mfa.js';
import { tenantTrustedDeviceDays } from '../db/tenants.js';
import { deviceTrusted, insertTrustedDevice } from '../db/trustedDevices.js';
import { setTrustRequest, trustRequested } from '../db/loginTokens.js';
import { randomToken, sha256 } from '../crypto/primitives.js';
import type { UserRow } from '../db/accounts.js';

export const TRUST_COOKIE = '__Host-fd_trust';
export const DEFAULT_TRUSTED_DEVICE_DAYS = 30;
export const MAX_TRUSTED_DEVICE_DAYS = 365;
const DAY_MS = 24 * 60 * 60 * 1000;
const PURPOSE = 'trusted-device';

/** The tenant's number of days (0: trusted browsers are off). */
export async function trustedDeviceDays(q: Queryable, organizationId: number | null): Promise<number> {
  if (organizationId === null) return DEFAULT_TRUSTED_DEVICE_DAYS;
  return (await tenantTrustedDeviceDays(q, organizationId)) ?? DEFAULT_TRUSTED_DEVICE_DAYS;
}

/**
 * The visitor's choice at /mfa, recorded on the open login token (the second factor is still to come):
 * trust is asked only where the tenant has trusted browsers on. Returns the tenant's number of days.
 */
export async function recordTrustChoice(ctx: AppContext, tokenHash: string, organizationId: number | null, trust: boolean): Promise<number> {
  const days = await trustedDeviceDays(ctx.data, organizationId);
  await setTrustRequest(ctx.data, tokenHash, trust && days > 0);
  return days;
}

/** __Host-: Secure, Path=/ and no Domain (browsers treat http://localhost as secure, so the demo keeps it too). */
const COOKIE = { httpOnly: true, secure: true, sameSite: 'strict', path: '/' } as const;

/**
 * After a second factor succeeded for this login token: when the visitor asked for it and the tenant
 * allows it, this browser becomes trusted for the account. Call it once the session started.
 */
export async function trustBrowserIfAsked(ctx: AppContext, req: FastifyRequest, reply: FastifyReply, tokenHash: string, user: UserRow): Promise<boolean> {
  if (!(await trustRequested(ctx.data, tokenHash))) return false;
  const days = await trustedDeviceDays(ctx.data, user.organization_id);
  if (days <= 0) return false;
  const secret = randomToken(32);
  const t = ctx.now();
  await insertTrustedDevice(ctx.data, {
    deviceHash: sha256(secret),
    userId: user.id,
    createdAt: t,
    expiresAt: t + days * DAY_MS,
    userAgent: String(req.headers['user-agent'] ?? ''),
  });
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
  // It stands for a second factor the account has: without one (set up again after a reset) it skips nothing.
  const ok =
    secret !== undefined &&
    (await deviceTrusted(ctx.data, sha256(secret), user.id, ctx.now())) &&
    (await trustedDeviceDays(ctx.data, user.organization_id)) > 0 &&
    (await hasEnrolment(ctx.data, user.id));
  if (!ok) reply.clearCookie(TRUST_COOKIE, COOKIE);
  return ok;
}
