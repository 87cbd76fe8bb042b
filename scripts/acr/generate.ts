import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderHtml, renderMarkdown } from './render';
import { buildReport, type Criteria, type Manual, type Report } from './report';
import type { A11yResults } from './results';

/** Where the report's inputs live, relative to the repository. */
export const PATHS = {
  criteria: 'scripts/acr/criteria.json',
  manual: 'docs/acr/manual.json',
  /** The latest run of the browser suite's accessibility walk (tests/e2e/a11y.spec.ts). */
  fresh: 'build/a11y-results.json',
  /** The last run kept in the repository (`npm run acr -- --keep`), used when there is no fresh one. */
  kept: 'docs/acr/last-run.json',
  /** The report made from the kept run, in the repository. */
  keptReport: 'docs/acr/report.md',
  out: 'build/acr',
};

const readJson = <T>(root: string, file: string): T => JSON.parse(readFileSync(join(root, file), 'utf8')) as T;

/** The results file to use: the one asked for, else a fresh run's, else the kept one. */
export function resultsSource(root: string, asked?: string): string {
  if (asked) return asked;
  return existsSync(join(root, PATHS.fresh)) ? PATHS.fresh : PATHS.kept;
}

export function generate(root: string, resultsFile: string): { report: Report; markdown: string; html: string } {
  const results = readJson<A11yResults>(root, resultsFile);
  if (results.format !== 1) throw new Error(`${resultsFile}: format ${String(results.format)} is not one this generator reads (1)`);
  const report = buildReport(readJson<Criteria>(root, PATHS.criteria), results, readJson<Manual>(root, PATHS.manual), resultsFile);
  return { report, markdown: renderMarkdown(report), html: renderHtml(report) };
}
