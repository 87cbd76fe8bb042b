/**
 * `npm run admin -- migrate [--status]`: the schema migrations alone (docs/deploy.md, "Upgrade"): run
 * once before the new release's instances start, or look first. `--status` changes nothing: every
 * migration of this release, applied (when) or pending, and those the database has from a newer one.
 */
import { migrationStatus } from '../db/migrationStatus.js';
import type { AdminCommand } from './commands.js';

const shown = (at: number) => new Date(at).toISOString().replace(/\.\d{3}Z$/, 'Z');

export const MIGRATE_COMMANDS: Record<string, AdminCommand> = {
  migrate: {
    summary: 'apply the schema migrations not applied yet (--status: list them, change nothing)',
    usage: 'migrate [--status]',
    options: { status: { type: 'boolean' } },
    migrateFirst: false,
    async run(ctx, values, out) {
      if (values.status) {
        const states = await migrationStatus(ctx.db);
        for (const s of states)
          out(
            `${s.name.padEnd(36)} ${s.appliedAt === null ? 'pending' : `applied ${shown(s.appliedAt)}`}${s.unknown ? ' (not in this release: applied by a newer one)' : ''}`,
          );
        const pending = states.filter((s) => s.appliedAt === null).length;
        out(`${ctx.db.description}: ${pending === 0 ? 'up to date' : `${pending} pending (npm run admin -- migrate applies them)`}`);
        return;
      }
      const applied = await ctx.db.migrate();
      for (const name of applied) out(`applied ${name}`);
      out(`${ctx.db.description}: ${applied.length === 0 ? 'up to date, nothing to apply' : `${applied.length} migration(s) applied`}`);
    },
  },
};
