/**
 * 042: a studio approval names the revision it approved (issue 35, finding 4), and studio people sign
 * in on the product's sign-in page (finding 8): the studio's own sessions and failure counts go.
 */
import type { MigrationContext } from '../schema.js';

export async function up({ db }: MigrationContext): Promise<void> {
  // Each save of a change is a new revision (1 at creation). Approve and publish name the revision the
  // person's page showed, and are refused for any other (server/routes/studio/api-changes.ts).
  await db.schema
    .alterTable('studio_changes')
    .addColumn('revision', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  // The revision an event was about (saved, review asked, approved, sent back, published); NULL before 042.
  await db.schema.alterTable('studio_change_events').addColumn('revision', 'integer').execute();
  // The studio reads the product's session now (server/routes/studio/people.ts).
  await db.schema.dropTable('studio_sessions').execute();
  await db.schema.dropTable('studio_sign_in_failures').execute();
}
