/**
 * `npm run admin -- backup --to <file>`: a consistent copy of the SQLite database while the server runs
 * (server/db/backup.ts: VACUUM INTO). On PostgreSQL it says to use pg_dump instead.
 */
import { backupSqlite } from '../db/backup.js';
import { AdminError, EXIT, type AdminCommand } from './commands.js';

export const BACKUP_COMMANDS: Record<string, AdminCommand> = {
  backup: {
    summary: 'copy the SQLite database, consistently, while servers use it (PostgreSQL: pg_dump)',
    usage: 'backup --to <new file>        (e.g. --to backups/app-$(date +%F).sqlite)',
    options: { to: { type: 'string' } },
    async run(ctx, values, out) {
      if (typeof values.to !== 'string' || values.to === '') throw new AdminError('--to is required: the file to write (a new one)', EXIT.usage);
      if (ctx.db.engine !== 'sqlite') throw new AdminError('this database is PostgreSQL: back it up with pg_dump -Fc (docs/deploy.md, "Backups")', EXIT.usage);
      try {
        const bytes = await backupSqlite(ctx.db, values.to);
        out(`${ctx.db.description} copied to ${values.to} (${bytes} bytes, one consistent snapshot)`);
      } catch (error) {
        if (/exists already/.test((error as Error).message)) throw new AdminError((error as Error).message, EXIT.conflict);
        throw error;
      }
    },
  },
};
