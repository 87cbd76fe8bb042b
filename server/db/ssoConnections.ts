/** Statements on sso_connections that server/sso/connections.ts builds on (new ones live here, docs/data-layer.md). */
import type { Queryable } from './data.js';

/** Replaces a connection's settings (JSON); whether the row existed. */
export async function updateConnectionSettings(q: Queryable, id: number, settingsJson: string, now: number): Promise<boolean> {
  const { changes } = await q.run('UPDATE sso_connections SET settings = ?, updated_at = ? WHERE id = ?', [settingsJson, now, id]);
  return changes === 1;
}
