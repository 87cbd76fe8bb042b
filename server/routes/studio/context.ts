import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CheckedEdit, Person } from '../../../catalogue/studio-contract.js';
import type { Database } from '../../db/data.js';
import type { Changes } from './changes.js';
import type { Edit } from './files.js';
import type { History } from './history.js';
import type { People } from './people.js';
import type { Publisher } from '../../../tooling/publish.js';

/** What the studio's route modules share (built once by ./index.ts). */
export interface StudioContext {
  /** The project whose screens/ and locales/ the studio reads and writes. */
  root: string;
  data: Database;
  /** The app's clock (epoch ms). */
  now(): number;
  people: People;
  changes: Changes;
  history: History;
  publish: Publisher;
  /** The catalogue check with some files in place of those on disk (./check.ts, loaded on first use). */
  checkFiles(files: Record<string, string>, screenId: string): Promise<CheckedEdit>;
  checkEdit(edit: Edit): Promise<CheckedEdit>;
  /** The signed-in person, or the 401 sent. */
  signedIn(req: FastifyRequest, reply: FastifyReply): Promise<Person | undefined>;
}

/** A request body's string member, trimmed and bounded, or undefined when it is not a string. */
export function text(value: unknown, max: number): string | undefined {
  return typeof value === 'string' ? value.trim().slice(0, max) : undefined;
}

/** A positive integer of a path or query parameter, or undefined. */
export function whole(value: unknown): number | undefined {
  const n = typeof value === 'string' && /^[1-9][0-9]{0,9}$/.test(value) ? Number(value) : undefined;
  return n !== undefined && Number.isSafeInteger(n) ? n : undefined;
}
