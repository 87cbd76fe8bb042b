import { existsSync, readFileSync } from 'node:fs';
import { expect, type BrowserContext, type Page, type TestInfo } from '@playwright/test';
import { accessibilityTree, formatTree, namingProblems } from './announced';
import type { Results } from './checks';
import { pasteIntoSecrets } from './forms';
import { focusAfterChange, Keys, keyboardWalk, PageCdp, radioArrows, selectArrows, submitByKeyboard } from './keyboard';
import { reflowChecks, textResize, textSpacing } from './layout';
import { forcedColours, motion } from './modes';
import type { FocusStop } from './probe';

/**
 * The checks beyond axe on one screen state of the accessibility walk (tests/e2e/a11y.spec.ts), each
 * recorded in the run's Results under the state's id. The order matters: checks that only look come
 * first; the keyboard walk moves focus; the paste changes fields and puts them back; arrows (which
 * check a radio) come only at the end of a visit (afterVisit).
 */
export class StateChecks {
  private readonly cdp: PageCdp;
  private readonly keys: Keys;
  private readonly clipboard: Promise<void>;
  /** The frame's controls per state, for the consistency check at the end. */
  private readonly frames = new Map<string, string[]>();
  private lastStops: FocusStop[] = [];
  /** The selects the on-input check has moved through (each once). */
  private readonly selectsSeen = new Set<string>();
  /** Milliseconds spent per group of checks (printed with A11Y_VERBOSE: what the walk's time goes to). */
  readonly spent = new Map<string, number>();

  constructor(
    private readonly page: Page,
    context: BrowserContext,
    private readonly results: Results,
    private readonly testInfo: TestInfo,
  ) {
    this.cdp = new PageCdp(context, page);
    this.keys = new Keys(this.cdp);
    // The paste check writes the clipboard and pastes from it.
    this.clipboard = context.grantPermissions(['clipboard-read', 'clipboard-write']);
  }

  private async timed<T>(group: string, work: () => Promise<T>): Promise<T> {
    const started = performance.now();
    try {
      return await work();
    } finally {
      this.spent.set(group, (this.spent.get(group) ?? 0) + performance.now() - started);
    }
  }

  /** Everything but axe and the themes on the state on show, recorded under `state`. */
  async run(state: string, options: { errorsShown: boolean; snapshot?: boolean }): Promise<void> {
    const { page, results } = this;
    const form = await this.timed('forms', () =>
      page.evaluate(() => {
        const probe = window.__fdA11y;
        if (!probe) throw new Error('the accessibility probe is not in the page');
        return {
          purpose: probe.inputPurpose(),
          paste: probe.pasteBlocked(),
          errors: probe.errorWiring(),
          redundant: probe.redundantEntry(),
          frame: probe.frameControls(),
          // 'Sign in | Front Door': the page, then the site after the last bar.
          title: document.title.replace(/\s*\|[^|]*$/, '').trim() ? [] : [`the page title "${document.title}" names no page`],
        };
      }),
    );
    results.record('input-purpose', state, form.purpose);
    results.record('redundant-entry', state, form.redundant);
    results.record('page-title', state, form.title);
    this.frames.set(state, form.frame);
    if (!options.errorsShown) results.record('focus-order', state, await focusAfterChange(page));
    results.record('errors', state, form.errors);
    await this.timed('layout', () => this.layout(state));
    await this.timed('keyboard', () => this.keyboard(state, !options.errorsShown));
    const modes = await this.timed('forced colours', () => forcedColours(page, this.lastStops));
    results.record('forced-colours', state, [...modes.shapes, ...modes.focus]);
    const moving = await this.timed('motion', () => motion(page));
    results.record('motion', state, [...moving.reduced, ...moving.forever]);
    await this.timed('announced', () => this.announced(state, options.snapshot !== false));
    // A real paste in each secret field once per visit (the errors shown change no field).
    await this.clipboard;
    const pasted = options.errorsShown ? [] : await this.timed('paste', () => pasteIntoSecrets(page));
    results.record('authentication', state, [...form.paste, ...pasted]);
  }

  private async layout(state: string): Promise<void> {
    const { page, results } = this;
    const reflow = await this.timed('reflow', () => reflowChecks(page));
    results.record('reflow', state, reflow.reflow);
    results.record('target-size', state, reflow.targets);
    results.record('orientation', state, reflow.orientation);
    results.record('text-resize', state, await this.timed('text size', async () => textResize(await this.cdp.session(), page)));
    results.record('text-spacing', state, await this.timed('text spacing', () => textSpacing(page)));
  }

  private async keyboard(state: string, back: boolean): Promise<void> {
    const found = await keyboardWalk(this.page, this.keys, back);
    this.lastStops = found.stops;
    this.results.record('keyboard-reach', state, found.reach);
    this.results.record('keyboard-trap', state, found.trap);
    this.results.record('focus-order', state, found.order);
    this.results.record('focus-visible', state, found.visible);
    this.results.record('focus-not-obscured', state, found.obscured);
    this.results.record('on-focus', state, found.onFocus);
  }

  /** The accessibility tree against its reviewed snapshot (Playwright's, so --update-snapshots writes it). */
  private async announced(state: string, snapshot: boolean): Promise<void> {
    const nodes = await accessibilityTree(await this.cdp.session());
    this.results.record('names', state, namingProblems(nodes));
    if (!snapshot) return;
    const text = formatTree(nodes);
    const file = this.testInfo.snapshotPath(`${state}.txt`);
    const kept = existsSync(file) ? readFileSync(file, 'utf8') : undefined;
    const updating = ['all', 'changed'].includes(this.testInfo.config.updateSnapshots);
    const problem = kept === undefined ? 'no reviewed snapshot yet' : kept === text ? undefined : 'differs from the reviewed snapshot';
    this.results.record('announced', state, problem && !updating ? [`what is announced ${problem} (${file})`] : []);
    expect.soft(text, `what ${state} announces`).toMatchSnapshot(`${state}.txt`);
  }

  /** The form submitted with Space, focus then on the first error; true when there was a form. */
  async submitByKeyboard(state: string): Promise<boolean> {
    const { submitted, problems } = await submitByKeyboard(this.page);
    if (submitted) this.results.record('errors', state, problems);
    return submitted;
  }

  /** At the end of a visit: arrows in its radio groups and selects (they change the form, so nothing follows). */
  async afterVisit(state: string): Promise<void> {
    this.results.record('keyboard-reach', state, await this.timed('keyboard', () => radioArrows(this.page, this.lastStops)));
    this.results.record('on-input', state, await this.timed('keyboard', () => selectArrows(this.page, this.selectsSeen)));
    this.lastStops = [];
  }

  /** The frame's controls in the same relative order on every state (3.2.3, 3.2.6). */
  consistency(): void {
    const before = new Map<string, Set<string>>();
    const where = new Map<string, string>();
    for (const [state, names] of this.frames) {
      const problems: string[] = [];
      names.forEach((name, i) => {
        for (const later of names.slice(i + 1)) {
          if (later === name) continue;
          if (before.get(later)?.has(name)) problems.push(`"${later}" comes before "${name}" on ${where.get(`${later}>${name}`)}, after it here`);
          before.set(name, (before.get(name) ?? new Set()).add(later));
          if (!where.has(`${name}>${later}`)) where.set(`${name}>${later}`, state);
        }
      });
      this.results.record('consistent', state, problems);
    }
  }

  async close(): Promise<void> {
    await this.cdp.detach();
  }
}
