/**
 * Experiments (table experiments, migration 060): the variants of one text of one screen, each with
 * its share of visitors; services/experiments.ts assigns a browser to one and serves its text.
 */
import type { Queryable } from './data.js';

export type ExperimentStatus = 'running' | 'stopped' | 'promoted';

export interface ExperimentVariant {
  /** "A", "B", …: what the funnel shows. */
  name: string;
  /** Percent of the visitors, 0–100; the shares of an experiment add up to 100. */
  share: number;
  /** The text of the experiment's key per language tag (lower case, "en-us"); a language without one shows the catalogue's. */
  texts: Record<string, string>;
}

export interface Experiment {
  id: string;
  screen: string;
  textKey: string;
  variants: ExperimentVariant[];
  status: ExperimentStatus;
  /** The variant every visitor sees once it is promoted. */
  winner: string | null;
  createdAt: number;
  updatedAt: number;
}

interface ExperimentRow {
  id: string;
  screen: string;
  text_key: string;
  variants: string;
  status: ExperimentStatus;
  winner: string | null;
  created_at: number;
  updated_at: number;
}

const fromRow = (row: ExperimentRow): Experiment => ({
  id: row.id,
  screen: row.screen,
  textKey: row.text_key,
  variants: JSON.parse(row.variants) as ExperimentVariant[],
  status: row.status,
  winner: row.winner,
  createdAt: Number(row.created_at),
  updatedAt: Number(row.updated_at),
});

const SELECT = 'SELECT id, screen, text_key, variants, status, winner, created_at, updated_at FROM experiments';

/** Every experiment, the running ones first, then the newest. */
export async function listExperiments(q: Queryable): Promise<Experiment[]> {
  const rows = await q.all<ExperimentRow>(`${SELECT} ORDER BY CASE status WHEN 'running' THEN 0 ELSE 1 END, created_at DESC, id`);
  return rows.map(fromRow);
}

export async function findExperiment(q: Queryable, id: string): Promise<Experiment | undefined> {
  const row = await q.get<ExperimentRow>(`${SELECT} WHERE id = ?`, [id]);
  return row ? fromRow(row) : undefined;
}

/** Adds an experiment; false when its id is taken. */
export async function insertExperiment(q: Queryable, e: Omit<Experiment, 'updatedAt'>): Promise<boolean> {
  const result = await q.run(
    `INSERT INTO experiments (id, screen, text_key, variants, status, winner, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (id) DO NOTHING`,
    [e.id, e.screen, e.textKey, JSON.stringify(e.variants), e.status, e.winner, e.createdAt, e.createdAt],
  );
  return result.changes === 1;
}

/** Stops, or promotes `winner`; only a running experiment changes (false otherwise). */
export async function endExperiment(q: Queryable, id: string, status: 'stopped' | 'promoted', winner: string | null, now: number): Promise<boolean> {
  const result = await q.run("UPDATE experiments SET status = ?, winner = ?, updated_at = ? WHERE id = ? AND status = 'running'", [status, winner, now, id]);
  return result.changes === 1;
}
