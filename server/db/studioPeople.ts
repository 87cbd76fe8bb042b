/**
 * The screen studio's people (table studio_people, migration 030): which accounts of the tenant
 * (users.email) have a studio role, and which. The studio reads it for every request
 * (server/routes/studio/people.ts); nothing else writes it but the demo seed.
 */
import type { Person, StudioRole } from '../../catalogue/studio-contract.js';
import type { Queryable } from './data.js';

export const STUDIO_ROLES: readonly StudioRole[] = ['editor', 'approver'];

const isRole = (value: unknown): value is StudioRole => STUDIO_ROLES.includes(value as StudioRole);

/** The studio role of an account's email, or undefined when it has none. */
export async function studioRole(q: Queryable, email: string): Promise<StudioRole | undefined> {
  const row = await q.get<{ role: string }>('SELECT role FROM studio_people WHERE email = ?', [email.trim().toLowerCase()]);
  return isRole(row?.role) ? row.role : undefined;
}

/** Gives these people their roles, keeping a role that was changed by hand. */
export async function addStudioPeople(q: Queryable, people: readonly Person[], at: number): Promise<void> {
  for (const person of people)
    await q.run('INSERT INTO studio_people (email, role, created_at) VALUES (?, ?, ?) ON CONFLICT (email) DO NOTHING', [person.email, person.role, at]);
}
