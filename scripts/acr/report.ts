import type { A11yResults, CheckResult } from './results';

/**
 * The conformance report as data: one row per WCAG 2.2 A/AA success criterion, per Section 508 and
 * EN 301 549 clause that applies to a web page, each with its conformance level, its evidence (the
 * automated checks of the accessibility walk that judged it, on which screens and states, with what
 * result) and the remarks of the hand-kept review (docs/acr/manual.json). A criterion that neither a
 * check nor the review answers is listed as unanswered: the generator refuses to write a report then.
 */

export const LEVELS = ['Supports', 'Partially Supports', 'Does Not Support', 'Not Applicable'] as const;
export type Conformance = (typeof LEVELS)[number];

export interface Criteria {
  wcag: Array<{ id: string; name: string; level: 'A' | 'AA'; note?: string }>;
  section508: Standard;
  en301549: Standard;
}
export interface Standard {
  title: string;
  chapters: Array<{ id: string; title: string; applies: boolean; why?: string; note?: string; rows?: Array<{ id: string; name: string; wcag?: string[] }> }>;
}

/** One criterion's hand-kept review: what no tool can judge, who looked, when and how. */
export interface ManualEntry {
  conformance?: Conformance;
  remarks: string;
  checkedBy: string;
  checkedOn: string;
  how: string;
}
export interface Manual {
  product: {
    name: string;
    description: string;
    contact: string;
    scope: string;
    notes?: string;
    /** From package.json, added by the generator. */ version?: string;
  };
  /** By row id: '1.2.1' (WCAG), '508 602.3', 'EN 5.3'. */
  entries: Record<string, ManualEntry>;
}

export interface AutomatedEvidence {
  check: string;
  title: string;
  states: number;
  screens: string[];
  findings: CheckResult['findings'];
}
export interface Row {
  id: string;
  name: string;
  level?: string;
  conformance: Conformance;
  automated: AutomatedEvidence[];
  manual?: ManualEntry;
  /** For a functional performance criterion: the WCAG rows it rests on, with theirs. */
  derivedFrom?: Array<{ id: string; conformance: Conformance }>;
  note?: string;
}
export interface Chapter {
  id: string;
  title: string;
  applies: boolean;
  why?: string;
  note?: string;
  rows: Row[];
}
export interface Report {
  product: Manual['product'];
  run: A11yResults['run'] & { source: string };
  states: A11yResults['states'];
  checks: CheckResult[];
  wcag: Row[];
  section508: Chapter[];
  en301549: Chapter[];
  unanswered: string[];
}

const RANK: Record<Conformance, number> = { 'Not Applicable': 0, Supports: 1, 'Partially Supports': 2, 'Does Not Support': 3 };
const worst = (levels: Conformance[]): Conformance => levels.reduce((a, b) => (RANK[b] > RANK[a] ? b : a), 'Not Applicable' as Conformance);

/** What the automated checks say: Supports with no findings, else Partially or (every state failed) Does Not Support. */
function automatedLevel(evidence: AutomatedEvidence[]): Conformance | undefined {
  if (evidence.length === 0) return undefined;
  return worst(
    evidence.map((e) => {
      if (e.findings.length === 0) return 'Supports';
      return new Set(e.findings.map((f) => f.state)).size >= e.states ? 'Does Not Support' : 'Partially Supports';
    }),
  );
}

/** The automated and the manual answer together: the worse one, and Not Applicable only when no check found anything. */
function combine(automated: Conformance | undefined, manual: Conformance | undefined): Conformance | undefined {
  if (manual === 'Not Applicable') return automated === undefined || automated === 'Supports' ? 'Not Applicable' : automated;
  if (automated === undefined) return manual;
  return manual === undefined ? automated : worst([automated, manual]);
}

function evidenceFor(id: string, results: A11yResults): AutomatedEvidence[] {
  const screenOf = new Map(results.states.map((s) => [s.id, s.screen.split('/')[0] ?? s.screen]));
  return results.checks
    .filter((check) => check.criteria.includes(id) && check.states.length > 0)
    .map((check) => ({
      check: check.id,
      title: check.title,
      states: check.states.length,
      screens: [...new Set(check.states.map((state) => screenOf.get(state) ?? state))].sort(),
      findings: check.findings,
    }));
}

function wcagRows(criteria: Criteria, results: A11yResults, manual: Manual, unanswered: string[]): Row[] {
  return criteria.wcag.map((criterion) => {
    const automated = evidenceFor(criterion.id, results);
    const review = manual.entries[criterion.id];
    const conformance = combine(automatedLevel(automated), review?.conformance);
    if (!conformance || (automated.length === 0 && !review)) unanswered.push(`WCAG ${criterion.id} ${criterion.name}`);
    return {
      id: criterion.id,
      name: criterion.name,
      level: criterion.level,
      conformance: conformance ?? 'Does Not Support',
      automated,
      manual: review,
      note: criterion.note,
    };
  });
}

function chapters(standard: Standard, prefix: string, wcag: Row[], manual: Manual, unanswered: string[]): Chapter[] {
  const byId = new Map(wcag.map((row) => [row.id, row]));
  return standard.chapters.map((chapter) => ({
    ...chapter,
    rows: (chapter.applies ? (chapter.rows ?? []) : []).map((row) => {
      const review = manual.entries[`${prefix} ${row.id}`];
      const derivedFrom = row.wcag?.map((id) => ({ id, conformance: byId.get(id)?.conformance ?? 'Does Not Support' }));
      const derived = derivedFrom ? worst(derivedFrom.map((d) => d.conformance)) : undefined;
      const conformance = combine(derived, review?.conformance);
      if (!conformance || (!derivedFrom && !review)) unanswered.push(`${standard.title} ${row.id} ${row.name}`);
      return { id: row.id, name: row.name, conformance: conformance ?? 'Does Not Support', automated: [], manual: review, derivedFrom };
    }),
  }));
}

export function buildReport(criteria: Criteria, results: A11yResults, manual: Manual, source: string): Report {
  const unanswered: string[] = [];
  for (const [id, entry] of Object.entries(manual.entries))
    if (entry.conformance !== undefined && !LEVELS.includes(entry.conformance))
      unanswered.push(`${id}: "${entry.conformance}" is no conformance level (${LEVELS.join(', ')})`);
  const wcag = wcagRows(criteria, results, manual, unanswered);
  return {
    product: manual.product,
    run: { ...results.run, source },
    states: results.states,
    checks: results.checks,
    wcag,
    section508: chapters(criteria.section508, '508', wcag, manual, unanswered),
    en301549: chapters(criteria.en301549, 'EN', wcag, manual, unanswered),
    unanswered,
  };
}
