/**
 * Trusted browsers (table trusted_devices): "Don't ask again on this device", a row per browser named
 * by the sha256 of the device secret in its signed cookie, until it expires or is revoked. The
 * tenant's number of days is a tenant setting (db/tenants.ts); the rules are services/trustedDevices.ts's.
 */
import type { Queryable } from './data.js';

export interface NewTrustedDevice {
  deviceHash: string;
  userId: number;
  createdAt: number;
  expiresAt: number;
  userAgent: string;
}

export async function insertTrustedDevice(q: Queryable, d: NewTrustedDevice): Promise<void> {
  await q.run('INSERT INTO trusted_devices (device_hash, user_id, created_at, expires_at, user_agent) VALUES (?, ?, ?, ?, ?)', [
    d.deviceHash,
    d.userId,
    d.createdAt,
    d.expiresAt,
    d.userAgent.slice(0, 300),
  ]);
}

/** Whether the device is trusted for the account now: its row is neither revoked nor expired. */
export async function deviceTrusted(q: Queryable, deviceHash: string, userId: number, now: number): Promise<boolean> {
  const row = await q.get<{ id: number }>('SELECT id FROM trusted_devices WHERE device_hash = ? AND user_id = ? AND revoked_at IS NULL AND expires_at > ?', [
    deviceHash,
    userId,
    now,
  ]);
  return row !== undefined;
}

/** Revokes every trusted browser of the account; how many. */
export async function revokeTrustedDevices(q: Queryable, userId: number, now: number): Promise<number> {
  return (await q.run('UPDATE trusted_devices SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL', [now, userId])).changes;
}
