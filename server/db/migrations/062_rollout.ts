/**
 * 062: rollouts and targeting (issue 38, docs/editing-screens.md "Rollout of a reviewed change").
 * An experiment may vary several text keys at once (a rollout varies every text its studio change
 * changes): each variant's texts become per key, then per language, and the single `text_key` goes.
 * An experiment may be limited to branded hosts and languages (JSON lists; empty: every one), and a
 * rollout names the studio change and the revision it shows (the approved one).
 */
import { sql } from 'kysely';
import type { MigrationContext } from '../schema.js';

interface OldRow {
  id: string;
  text_key: string;
  variants: string;
}

export async function up({ db, big }: MigrationContext): Promise<void> {
  await db.schema
    .alterTable('experiments')
    .addColumn('hosts', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
  await db.schema
    .alterTable('experiments')
    .addColumn('languages', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
  await db.schema.alterTable('experiments').addColumn('change_id', big).execute();
  await db.schema.alterTable('experiments').addColumn('change_revision', 'integer').execute();
  // Each variant's texts of the one key become { key: texts }: a few rows, rewritten here.
  const { rows } = await sql<OldRow>`SELECT id, text_key, variants FROM experiments`.execute(db);
  for (const row of rows) {
    const variants = (JSON.parse(row.variants) as Array<{ name: string; share: number; texts: Record<string, string> }>).map((v) => ({
      ...v,
      texts: { [row.text_key]: v.texts },
    }));
    await sql`UPDATE experiments SET variants = ${JSON.stringify(variants)} WHERE id = ${row.id}`.execute(db);
  }
  await db.schema.alterTable('experiments').dropColumn('text_key').execute();
}
