/**
 * The accessibility walk's results (tests/e2e/a11y.spec.ts writes them to build/a11y-results.json;
 * `npm run acr -- --keep` copies a run to docs/acr/last-run.json): what was checked, on which screen
 * states, against which WCAG success criteria, and what was found. The report generator
 * (scripts/acr.ts) reads only this and docs/acr/manual.json.
 */
export interface A11yResults {
  format: 1;
  run: {
    /** ISO time the walk ended. */
    at: string;
    /** The git commit checked, when known. */
    commit?: string;
    /** package.json's version checked. */
    version?: string;
    browser: string;
    axe: string;
  };
  /** Every screen state the walk checked: an id (file name safe), its screen/step and how it was reached. */
  states: Array<{ id: string; screen: string; label: string }>;
  checks: CheckResult[];
}

export interface CheckResult {
  /** A stable name, e.g. 'keyboard-reach'. */
  id: string;
  /** What it checks and how, one or two sentences: the report's evidence. */
  title: string;
  /** WCAG success criteria it gives evidence for ('2.1.1'). */
  criteria: string[];
  /** The ids of the states it ran on. */
  states: string[];
  findings: Array<{ state: string; problem: string }>;
}
