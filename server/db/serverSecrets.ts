/**
 * Secrets one database keeps for every instance that uses it (table server_secrets, migration 004):
 * demo-mode secrets, the demo IdP's and SP's keys, the recovery codes' sealed HMAC key. Two instances
 * making one at once: the first insert wins and both read the same value.
 */
import type { Queryable } from './data.js';

/** The row of the demo mode's APP_SECRET (security/secrets.ts makes it; `npm run admin` reads it). */
export const DEMO_APP_SECRET = 'app';

export async function readServerSecret(q: Queryable, name: string): Promise<string | undefined> {
  return (await q.get<{ value: string }>('SELECT value FROM server_secrets WHERE name = ?', [name]))?.value;
}

/** Stores `value` under `name` unless a value is there already; returns the stored one (the first writer's). */
export async function keepServerSecret(q: Queryable, name: string, value: string, now: number): Promise<string> {
  await q.run('INSERT INTO server_secrets (name, value, created_at) VALUES (?, ?, ?) ON CONFLICT (name) DO NOTHING', [name, value, now]);
  const stored = await readServerSecret(q, name);
  if (stored === undefined) throw new Error(`server secret ${name} was not stored`);
  return stored;
}
