import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { A11yResults, CheckResult } from '../../../scripts/acr/results';

/**
 * The checks of the accessibility walk (tests/e2e/a11y.spec.ts), each with the WCAG success criteria
 * it gives evidence for; and the record of a run, written as build/a11y-results.json, which
 * `npm run acr` turns into the conformance report. axe's criteria are not listed here: they come from
 * the tags of the rules that applied (./axe.ts, recorded by the walk).
 */
export const CHECKS = {
  axe: { criteria: [], title: 'axe-core: every rule tagged WCAG 2.0, 2.1 and 2.2 A and AA, and page-has-heading-one; two themes, light and dark' },
  'keyboard-reach': {
    criteria: ['2.1.1'],
    title: 'Every visible control is reached with Tab (a radio group once; ArrowDown and ArrowUp move inside it); forms submitted with Space',
  },
  'keyboard-trap': { criteria: ['2.1.2'], title: 'Tab and Shift+Tab each leave the page past its last (first) control: no trap' },
  'focus-order': {
    criteria: ['2.4.3'],
    title: 'Shift+Tab retraces Tab in reverse; after each change of step or screen focus is on the heading or a field of the new step',
  },
  'focus-visible': {
    criteria: ['2.4.7'],
    title: 'Every Tab stop shows a focus outline of at least 2 px with 3:1 contrast against the pixels behind it (also WCAG 2.4.13, AAA)',
  },
  'focus-not-obscured': { criteria: ['2.4.11'], title: 'No Tab stop is entirely hidden behind other content when focused' },
  'on-focus': { criteria: ['3.2.1'], title: 'Moving focus through every control changes neither the address nor the screen or step' },
  'on-input': {
    criteria: ['3.2.2'],
    title: "Moving through each select's choices with the arrow keys changes neither the address, the page's language nor the screen",
  },
  errors: {
    criteria: ['3.3.1', '4.1.3'],
    title: 'After a submit by keyboard with errors, focus is on the first invalid field; each error is text, linked with aria-describedby and in a live region',
  },
  'input-purpose': { criteria: ['1.3.5'], title: 'Email, phone, password and code inputs carry their autocomplete token' },
  authentication: {
    criteria: ['3.3.8'],
    title: 'Paste is never blocked; a real paste (clipboard, Ctrl+V) arrives in every password and one-time-code field; password managers get their tokens',
  },
  'redundant-entry': { criteria: ['3.3.7'], title: 'No step asks again, empty, for a value typed on an earlier step (by autocomplete token)' },
  reflow: { criteria: ['1.4.10'], title: 'At 320 x 640 CSS px nothing scrolls sideways and no text is cut off' },
  orientation: { criteria: ['1.3.4'], title: 'No style rule depends on the orientation' },
  'target-size': { criteria: ['2.5.8'], title: 'At 320 px every pointer target is 24 x 24 px or has 24 px of room (links in a sentence excepted)' },
  'text-resize': { criteria: ['1.4.4'], title: "The browser's text size at 200 % (Chromium's setting): all text grows, none is cut off or scrolls sideways" },
  'text-spacing': { criteria: ['1.4.12'], title: 'WCAG 1.4.12 text spacing applied: no text cut off, nothing scrolls sideways' },
  'forced-colours': {
    criteria: ['1.4.11', '2.4.7'],
    title: 'Forced colours (Windows high contrast, emulated): controls keep a border, pictures keep showing, every Tab stop keeps its focus outline',
  },
  motion: {
    criteria: ['2.2.2', '2.3.1'],
    title: 'Nothing moves for ever but a busy indicator; with prefers-reduced-motion nothing animates or transitions (also WCAG 2.3.3, AAA)',
  },
  announced: {
    criteria: ['1.3.1', '4.1.2', '4.1.3'],
    title: "Chromium's accessibility tree (roles, names, states, descriptions, live-region text) equals the reviewed snapshot",
  },
  names: { criteria: ['4.1.2', '2.5.3'], title: 'Every control in the accessibility tree has a name, and its visible text is part of it' },
  timing: {
    criteria: ['2.2.1'],
    title: 'Every time limit in the catalogue (screens/*.json) lasts 20 hours or can be turned off by a button; no error or warning hides by itself',
  },
  consistent: {
    criteria: ['3.2.3', '3.2.6'],
    title: "The page frame's links and controls (language, help, contact) come in the same relative order on every state",
  },
  'page-title': { criteria: ['2.4.2'], title: 'Every state has a page title naming the page before the site' },
} satisfies Record<string, { criteria: string[]; title: string }>;

export type CheckId = keyof typeof CHECKS;

export class Results {
  private readonly states: A11yResults['states'] = [];
  private readonly runs = new Map<CheckId, { states: Set<string>; findings: CheckResult['findings'] }>();
  private axeCriteria = new Set<string>();

  addState(id: string, screen: string, label: string): void {
    if (!this.states.some((s) => s.id === id)) this.states.push({ id, screen, label });
  }

  /** A check ran on a state and found these problems (none: it passed there). */
  record(check: CheckId, state: string, problems: readonly string[]): void {
    const run = this.runs.get(check) ?? { states: new Set<string>(), findings: [] };
    run.states.add(state);
    for (const problem of problems) run.findings.push({ state, problem });
    this.runs.set(check, run);
  }

  /** The criteria of the axe rules that applied somewhere. */
  axeCovered(criteria: Iterable<string>): void {
    this.axeCriteria = new Set([...this.axeCriteria, ...criteria]);
  }

  /** The checks that found something (the control test's question). */
  failing(): CheckId[] {
    return [...this.runs.entries()].filter(([, run]) => run.findings.length > 0).map(([check]) => check);
  }

  findings(): string[] {
    return [...this.runs.entries()].flatMap(([check, run]) => run.findings.map((f) => `${f.state} [${check}]: ${f.problem}`));
  }

  write(file: string, run: Omit<A11yResults['run'], 'at' | 'commit' | 'version'>): A11yResults {
    const checks: CheckResult[] = (Object.keys(CHECKS) as CheckId[]).map((id) => ({
      id,
      title: CHECKS[id].title,
      criteria: id === 'axe' ? [...this.axeCriteria].sort() : CHECKS[id].criteria,
      states: [...(this.runs.get(id)?.states ?? [])],
      findings: this.runs.get(id)?.findings ?? [],
    }));
    const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version?: string };
    const results: A11yResults = { format: 1, run: { at: new Date().toISOString(), ...commit(), version, ...run }, states: this.states, checks };
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
    return results;
  }
}

/** The commit checked, when this is a git checkout (a copy without git has none to name). */
function commit(): { commit?: string } {
  try {
    return { commit: execFileSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() };
  } catch {
    return {};
  }
}
