/**
 * 030: the screen studio's people, drafts, reviews and versions (issue 29). These tables are the
 * catalogue's history, not the demo tenant's data: wipe() and POST /dev/reset keep them (KEPT_TABLES),
 * as they keep the files of screens/ and locales/ they describe.
 */
import { sql } from 'kysely';
import type { MigrationContext } from '../schema.js';

/** Who may use the studio, and as what; its own sessions and sign-in failures (both dropped by 042). */
async function people({ db, big }: MigrationContext): Promise<void> {
  // An editor drafts changes, an approver approves those of others; they sign in with their account (users.email).
  await db.schema
    .createTable('studio_people')
    .addColumn('email', 'text', (c) => c.primaryKey())
    .addColumn('role', 'text', (c) => c.notNull().check(sql`role IN ('editor', 'approver')`))
    .addColumn('created_at', big, (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('studio_sessions')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('created_at', big, (c) => c.notNull())
    .addColumn('expires_at', big, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('studio_sessions_expiry').on('studio_sessions').column('expires_at').execute();
  await db.schema
    .createTable('studio_sign_in_failures')
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('at', big, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('studio_sign_in_failures_email').on('studio_sign_in_failures').columns(['email', 'at']).execute();
}

/**
 * A change of the catalogue: its files after (`files`) and before (`base`, JSON: path to text, null
 * when the file did not exist), its review state and, once published, the version it made; and what
 * happened to it, in order.
 */
async function changes({ db, big, id }: MigrationContext): Promise<void> {
  await id(db.schema.createTable('studio_changes'))
    .addColumn('screen_id', 'text', (c) => c.notNull())
    .addColumn('note', 'text', (c) => c.notNull())
    .addColumn('author', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull().check(sql`state IN ('draft', 'review', 'approved', 'published', 'discarded')`))
    .addColumn('files', 'text', (c) => c.notNull())
    .addColumn('base', 'text', (c) => c.notNull())
    .addColumn('approved_by', 'text')
    .addColumn('version', big)
    .addColumn('created_at', big, (c) => c.notNull())
    .addColumn('updated_at', big, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('studio_changes_state').on('studio_changes').columns(['state', 'updated_at']).execute();
  await id(db.schema.createTable('studio_change_events'))
    .addColumn('change_id', big, (c) => c.notNull().references('studio_changes.id'))
    .addColumn('at', big, (c) => c.notNull())
    .addColumn('who', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('comment', 'text')
    .execute();
  await db.schema.createIndex('studio_change_events_change').on('studio_change_events').columns(['change_id', 'id']).execute();
}

/**
 * The catalogue's versions: the first is the catalogue as the studio found it, then every publish,
 * rollback and change made to the files outside the studio. A version holds the full text of the files
 * it changed; the catalogue at version N is, per file, its text in the last version up to N that has it.
 * The number is given by the code (on SQLite the column is the rowid all the same).
 */
async function versions({ db, big }: MigrationContext): Promise<void> {
  await db.schema
    .createTable('studio_versions')
    .addColumn('number', big, (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind IN ('baseline', 'publish', 'rollback', 'outside')`))
    .addColumn('author', 'text', (c) => c.notNull())
    .addColumn('approver', 'text')
    .addColumn('note', 'text', (c) => c.notNull())
    .addColumn('change_id', big)
    .addColumn('restores', big)
    .addColumn('created_at', big, (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('studio_version_files')
    .addColumn('version', big, (c) => c.notNull().references('studio_versions.number'))
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('text', 'text')
    .addPrimaryKeyConstraint('studio_version_files_pkey', ['version', 'path'])
    .execute();
  await db.schema.createIndex('studio_version_files_path').on('studio_version_files').columns(['path', 'version']).execute();
}

export async function up(m: MigrationContext): Promise<void> {
  await people(m);
  await changes(m);
  await versions(m);
}
