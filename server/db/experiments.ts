/**
 * Experiments (table experiments, migrations 060 and 062): variants of one or more texts of one
 * screen, each with its share of visitors, optionally for some branded hosts and languages only; a
 * rollout is an experiment made of a studio change (A: the live texts, B: the change's).
 * services/experiments.ts assigns a browser to a variant and serves its texts.
 */
import type { Queryable } from './data.js';

export type ExperimentStatus = 'running' | 'stopped' | 'promoted';

/** Per text key, its text per language tag (lower case, "en-us"); a language without one shows the catalogue's. */
export type VariantTexts = Record<string, Record<string, string>>;

export interface ExperimentVariant {
  /** "A", "B", …: what the funnel shows. */
  name: string;
  /** Percent of the visitors, 0–100; the shares of an experiment add up to 100. */
  share: number;
  /** Every key the experiment varies is here (a variant showing the catalogue's text has no language for it). */
  texts: VariantTexts;
}

export interface Experiment {
  id: string;
  screen: string;
  variants: ExperimentVariant[];
  /** Branded host names (lower case) it runs on; empty: every host. */
  hosts: string[];
  /** Language tags it runs for; empty: every language. */
  languages: string[];
  status: ExperimentStatus;
  /** The variant every visitor sees once it is promoted. */
  winner: string | null;
  /** A rollout: the studio change it shows, at this revision (null: an experiment started by hand). */
  changeId: number | null;
  changeRevision: number | null;
  createdAt: number;
  updatedAt: number;
}

interface ExperimentRow {
  id: string;
  screen: string;
  variants: string;
  hosts: string;
  languages: string;
  status: ExperimentStatus;
  winner: string | null;
  change_id: number | string | null;
  change_revision: number | null;
  created_at: number;
  updated_at: number;
}

const fromRow = (row: ExperimentRow): Experiment => ({
  id: row.id,
  screen: row.screen,
  variants: JSON.parse(row.variants) as ExperimentVariant[],
  hosts: JSON.parse(row.hosts) as string[],
  languages: JSON.parse(row.languages) as string[],
  status: row.status,
  winner: row.winner,
  changeId: row.change_id === null ? null : Number(row.change_id),
  changeRevision: row.change_revision,
  createdAt: Number(row.created_at),
  updatedAt: Number(row.updated_at),
});

/** The keys an experiment varies (each variant names every one). */
export const keysOf = (e: Pick<Experiment, 'variants'>): string[] => [...new Set(e.variants.flatMap((v) => Object.keys(v.texts)))].sort();

const SELECT = 'SELECT id, screen, variants, hosts, languages, status, winner, change_id, change_revision, created_at, updated_at FROM experiments';

/** Every experiment, the running ones first, then the newest. */
export async function listExperiments(q: Queryable): Promise<Experiment[]> {
  const rows = await q.all<ExperimentRow>(`${SELECT} ORDER BY CASE status WHEN 'running' THEN 0 ELSE 1 END, created_at DESC, id`);
  return rows.map(fromRow);
}

export async function findExperiment(q: Queryable, id: string): Promise<Experiment | undefined> {
  const row = await q.get<ExperimentRow>(`${SELECT} WHERE id = ?`, [id]);
  return row ? fromRow(row) : undefined;
}

/** The running rollout of a studio change, if one runs. */
export async function runningRolloutOf(q: Queryable, changeId: number): Promise<Experiment | undefined> {
  const row = await q.get<ExperimentRow>(`${SELECT} WHERE change_id = ? AND status = 'running'`, [changeId]);
  return row ? fromRow(row) : undefined;
}

/** The rollouts of a studio change, newest first. */
export async function rolloutsOf(q: Queryable, changeId: number): Promise<Experiment[]> {
  return (await q.all<ExperimentRow>(`${SELECT} WHERE change_id = ? ORDER BY created_at DESC, id DESC`, [changeId])).map(fromRow);
}

export type NewExperiment = Omit<Experiment, 'updatedAt' | 'hosts' | 'languages' | 'changeId' | 'changeRevision'> &
  Partial<Pick<Experiment, 'hosts' | 'languages' | 'changeId' | 'changeRevision'>>;

/** Adds an experiment; false when its id is taken. */
export async function insertExperiment(q: Queryable, e: NewExperiment): Promise<boolean> {
  const result = await q.run(
    `INSERT INTO experiments (id, screen, variants, hosts, languages, status, winner, change_id, change_revision, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (id) DO NOTHING`,
    [
      e.id,
      e.screen,
      JSON.stringify(e.variants),
      JSON.stringify(e.hosts ?? []),
      JSON.stringify(e.languages ?? []),
      e.status,
      e.winner,
      e.changeId ?? null,
      e.changeRevision ?? null,
      e.createdAt,
      e.createdAt,
    ],
  );
  return result.changes === 1;
}

/** Stops, or promotes `winner`; only a running experiment changes (false otherwise). */
export async function endExperiment(q: Queryable, id: string, status: 'stopped' | 'promoted', winner: string | null, now: number): Promise<boolean> {
  const result = await q.run("UPDATE experiments SET status = ?, winner = ?, updated_at = ? WHERE id = ? AND status = 'running'", [status, winner, now, id]);
  return result.changes === 1;
}
