/**
 * What `npm run admin -- migrate --status` shows, read without changing anything: every migration this
 * release carries (server/db/migrations/index.ts), applied (when) or pending, and the
 * names the database records that this release does not know (applied by a newer release: the state
 * after a rollback, docs/deploy.md).
 */
import type { Queryable } from './data.js';
import { migrationNames } from './migrations.js';

export interface MigrationState {
  name: string;
  /** Epoch ms it was applied, or null: pending. */
  appliedAt: number | null;
  /** In the database but not in this release. */
  unknown: boolean;
}

async function hasMigrationTable(q: Queryable): Promise<boolean> {
  const row =
    q.engine === 'sqlite'
      ? await q.get("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'")
      : await q.get("SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = 'schema_migrations'");
  return row !== undefined;
}

export async function migrationStatus(q: Queryable): Promise<MigrationState[]> {
  const applied = (await hasMigrationTable(q))
    ? await q.all<{ name: string; applied_at: number }>('SELECT name, applied_at FROM schema_migrations ORDER BY name')
    : [];
  const known = migrationNames();
  const at = new Map(applied.map((r) => [r.name, r.applied_at]));
  return [
    ...known.map((name) => ({ name, appliedAt: at.get(name) ?? null, unknown: false })),
    ...applied.filter((r) => !known.includes(r.name)).map((r) => ({ name: r.name, appliedAt: r.applied_at, unknown: true })),
  ].sort((a, b) => a.name.localeCompare(b.name));
}
