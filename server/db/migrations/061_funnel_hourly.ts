/**
 * 061: the funnel pre-aggregated per hour (issue 38 "Scale"; docs/performance.md "The funnel at scale"). The
 * studio's report read every raw event of a screen's period (over 10 s at 10 million events on
 * PostgreSQL); it now reads these tables, kept up by rolling up the raw events (db/funnelAggregates.ts:
 * funnel_events.rolled = 0 marks those not rolled up yet, a partial index finds them):
 * - funnel_hourly: events per hour × screen × version × variant × kind × step × field × keyword × code
 *   ('' where the event has none), with the latest time (the versions' order);
 * - funnel_hourly_visitors: visitors first seen per hour doing a kind at a step; '*' stands for any
 *   version, kind or step. The visitor is hashed per day, so a period of whole days counts each once;
 * - funnel_daily_times: submit times per UTC day × step in buckets of ms (the median per step): per
 *   day, not per hour, since a histogram has a row per bucket and the report's periods are whole days;
 * - funnel_seen: which visitor was seen doing what, for the two days its daily hash can come back.
 * The events recorded before it are rolled up into them and marked, in SQL (db/funnelRollup.ts).
 */
import { sql, type ColumnDefinitionBuilder } from 'kysely';
import { funnelRollupStatements } from '../funnelRollup.js';
import type { MigrationContext } from '../schema.js';

const DAY = 24 * 60 * 60 * 1000;

const notNull = (c: ColumnDefinitionBuilder) => c.notNull();

export async function up({ db, big }: MigrationContext): Promise<void> {
  await db.schema
    .createTable('funnel_hourly')
    .addColumn('screen', 'text', notNull)
    .addColumn('hour', big, notNull)
    .addColumn('version', 'text', notNull)
    .addColumn('variant', 'text', notNull)
    .addColumn('kind', 'text', notNull)
    .addColumn('step', 'text', notNull)
    .addColumn('field', 'text', notNull)
    .addColumn('keyword', 'text', notNull)
    .addColumn('code', 'text', notNull)
    .addColumn('events', big, notNull)
    .addColumn('last_at', big, notNull)
    // Screen and hour first: the report reads one screen's hours.
    .addPrimaryKeyConstraint('funnel_hourly_key', ['screen', 'hour', 'version', 'variant', 'kind', 'step', 'field', 'keyword', 'code'])
    .execute();
  await db.schema
    .createTable('funnel_hourly_visitors')
    .addColumn('screen', 'text', notNull)
    .addColumn('hour', big, notNull)
    .addColumn('version', 'text', notNull)
    .addColumn('variant', 'text', notNull)
    .addColumn('kind', 'text', notNull)
    .addColumn('step', 'text', notNull)
    .addColumn('visitors', big, notNull)
    .addPrimaryKeyConstraint('funnel_hourly_visitors_key', ['screen', 'hour', 'version', 'variant', 'kind', 'step'])
    .execute();
  await db.schema
    .createTable('funnel_daily_times')
    .addColumn('screen', 'text', notNull)
    .addColumn('day', big, notNull)
    .addColumn('version', 'text', notNull)
    .addColumn('variant', 'text', notNull)
    .addColumn('step', 'text', notNull)
    .addColumn('bucket', big, notNull)
    .addColumn('n', big, notNull)
    .addPrimaryKeyConstraint('funnel_daily_times_key', ['screen', 'day', 'version', 'variant', 'step', 'bucket'])
    .execute();
  await db.schema
    .createTable('funnel_seen')
    .addColumn('visitor', 'text', notNull)
    .addColumn('screen', 'text', notNull)
    .addColumn('version', 'text', notNull)
    .addColumn('variant', 'text', notNull)
    .addColumn('kind', 'text', notNull)
    .addColumn('step', 'text', notNull)
    .addColumn('created_at', big, notNull)
    .addPrimaryKeyConstraint('funnel_seen_key', ['visitor', 'screen', 'version', 'variant', 'kind', 'step'])
    .execute();
  await db.schema.createIndex('funnel_seen_created').on('funnel_seen').column('created_at').execute();
  await db.schema
    .alterTable('funnel_events')
    .addColumn('rolled', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('funnel_events_pending').on('funnel_events').column('id').where(sql.ref('rolled'), '=', 0).execute();
  for (const statement of funnelRollupStatements(Date.now() - 2 * DAY)) await sql.raw(statement).execute(db);
}
