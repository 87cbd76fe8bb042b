/**
 * 060: experiments and a funnel for every screen (issue 38, docs/editing-screens.md "Experiments and
 * the funnel"). funnel_events: what the engine reports of a screen (step shown, field error, submit,
 * outcome, leave), per screen version and variant, never a typed value, an email or an address; the
 * visitor is a keyed hash of the browser's random id and the day (services/funnel.ts), so a visitor
 * cannot be followed from one day to the next. experiments: the variants of one text of one screen,
 * each with its share of visitors (services/experiments.ts assigns them).
 */
import { sql } from 'kysely';
import type { MigrationContext } from '../schema.js';

export async function up({ db, big, id }: MigrationContext): Promise<void> {
  await id(db.schema.createTable('funnel_events'))
    .addColumn('created_at', big, (c) => c.notNull())
    .addColumn('visitor', 'text', (c) => c.notNull())
    .addColumn('screen', 'text', (c) => c.notNull())
    .addColumn('version', 'text', (c) => c.notNull())
    .addColumn('variant', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('step', 'text')
    .addColumn('field', 'text')
    .addColumn('keyword', 'text')
    .addColumn('code', 'text')
    // Milliseconds since the step was shown (submit, outcome, leave): the median time per step.
    .addColumn('ms', big)
    .execute();
  // The funnel reads one screen's events of a period; the retention purge reads by time alone.
  await db.schema.createIndex('funnel_events_screen').on('funnel_events').columns(['screen', 'created_at']).execute();
  await db.schema.createIndex('funnel_events_created').on('funnel_events').column('created_at').execute();
  await db.schema
    .createTable('experiments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('screen', 'text', (c) => c.notNull())
    .addColumn('text_key', 'text', (c) => c.notNull())
    // JSON: [{ "name": "A", "share": 50, "texts": { "en-US": "…" } }, …]; shares add up to 100.
    .addColumn('variants', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status IN ('running', 'stopped', 'promoted')`))
    .addColumn('winner', 'text')
    .addColumn('created_at', big, (c) => c.notNull())
    .addColumn('updated_at', big, (c) => c.notNull())
    .execute();
}
