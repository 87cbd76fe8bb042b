/**
 * `npm run admin -- rotate-secret`: after APP_SECRET got a new value and the old one moved to
 * APP_SECRET_PREVIOUS (on every instance: they then unseal and verify with both), every sealed value
 * stored (server/db/sealed.ts: TOTP secrets, pending set-ups, emailed codes kept for resending, SSO
 * keys and client secrets, tenants' Twilio and Duo credentials, the recovery-code key) is unsealed and
 * sealed again under the new secret. Row by row, each a conditional update: it runs beside the
 * servers, and when it stops (a crash, ^C) it is simply run again: what is already under the new key
 * is left as it is. docs/deploy.md, "Rotating APP_SECRET".
 */
import type { SqlValue } from '../db/data.js';
import { replaceSealed, SEALED_COLUMNS, sealedRows } from '../db/sealed.js';
import { sealerFromSecrets } from '../security/secrets.js';
import { AdminError, EXIT, type AdminCommand } from './commands.js';

const BATCH = 200;

export interface RotationCount {
  resealed: number;
  /** Already under the new secret (a rotation run again). */
  current: number;
  /** Sealed under neither secret: left untouched, reported. */
  unreadable: number;
}

export const ROTATE_COMMANDS: Record<string, AdminCommand> = {
  'rotate-secret': {
    summary: 're-seal every stored secret under APP_SECRET (the old one in APP_SECRET_PREVIOUS); resumable',
    usage: 'rotate-secret        (with APP_SECRET=<new> and APP_SECRET_PREVIOUS=<old>, as the servers have them)',
    options: {},
    async run(ctx, _values, out) {
      const secret = ctx.env?.APP_SECRET || undefined;
      const previous = ctx.env?.APP_SECRET_PREVIOUS || undefined;
      if (!secret || !previous || secret === previous)
        throw new AdminError('rotate-secret needs the new secret in APP_SECRET and the old one in APP_SECRET_PREVIOUS (two different values)', EXIT.usage);
      const current = sealerFromSecrets(secret);
      const old = sealerFromSecrets(previous);
      const total: RotationCount = { resealed: 0, current: 0, unreadable: 0 };
      for (const column of SEALED_COLUMNS) {
        const count: RotationCount = { resealed: 0, current: 0, unreadable: 0 };
        let after: SqlValue = null;
        for (;;) {
          const rows = await sealedRows(ctx.db, column, after, BATCH);
          for (const row of rows) {
            try {
              current.unseal(row.value);
              count.current += 1;
              continue;
            } catch {
              // Not yet under the new secret.
            }
            let plain: string;
            try {
              plain = old.unseal(row.value);
            } catch {
              count.unreadable += 1;
              continue;
            }
            // A server that rewrote the value meanwhile sealed it under the new secret already.
            if (await replaceSealed(ctx.db, column, row.key, row.value, current.seal(plain))) count.resealed += 1;
            else count.current += 1;
          }
          if (rows.length < BATCH) break;
          after = rows.at(-1)?.key ?? null;
        }
        out(
          `${`${column.table}.${column.column}`.padEnd(36)} ${count.resealed} re-sealed, ${count.current} already under APP_SECRET${count.unreadable ? `, ${count.unreadable} under neither secret (left as they are)` : ''}`,
        );
        total.resealed += count.resealed;
        total.current += count.current;
        total.unreadable += count.unreadable;
      }
      if (total.unreadable > 0)
        throw new AdminError(
          `${total.unreadable} sealed value(s) open with neither APP_SECRET nor APP_SECRET_PREVIOUS: keep APP_SECRET_PREVIOUS until they are dealt with (is it the secret they were sealed with?)`,
          EXIT.failed,
        );
      out(
        `${ctx.db.description}: every sealed value is under APP_SECRET (${total.resealed} re-sealed now). Remove APP_SECRET_PREVIOUS once what it signed has expired (docs/deploy.md).`,
      );
    },
  },
};
