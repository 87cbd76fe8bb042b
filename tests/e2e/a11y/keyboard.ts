import type { BrowserContext, CDPSession, Page } from '@playwright/test';
import type { FocusStop } from './probe';

/**
 * Keyboard checks on a screen state: Tab through every stop and back with Shift+Tab (WCAG 2.1.1,
 * 2.1.2, 2.4.3), each stop's focus ring (2.4.7; its width and its contrast with what is behind it,
 * 2.4.13), none hidden behind other content (2.4.11), no change of screen on focus (3.2.1); arrows
 * inside radio groups; where focus goes after a change of step or screen, and after a submit with
 * errors (3.3.1). The key presses go to Chromium one after the other through one CDP session, and
 * the page records each focus change (./probe.ts), read once per walk.
 */

/** Smallest focus ring, CSS px (WCAG 2.4.13: as large as a 2 px perimeter), and its contrast. */
export const RING_MIN_WIDTH = 2;
export const RING_MIN_CONTRAST = 3;

export interface KeyboardFindings {
  reach: string[];
  trap: string[];
  order: string[];
  visible: string[];
  obscured: string[];
  onFocus: string[];
  /** The walk's stops, in Tab order. */
  stops: FocusStop[];
}

/** One CDP session of the walk's page, made when first needed: key presses, the accessibility tree, text size. */
export class PageCdp {
  private made: Promise<CDPSession> | undefined;
  constructor(
    private readonly context: BrowserContext,
    private readonly page: Page,
  ) {}

  session(): Promise<CDPSession> {
    this.made ??= this.context.newCDPSession(this.page);
    return this.made;
  }

  async detach(): Promise<void> {
    await (await this.made)?.detach().catch(() => undefined);
    this.made = undefined;
  }
}

/**
 * Tab presses straight to Chromium (as Playwright's keyboard does, without its round trip per key).
 * `pipelined`: all sent at once (Chromium handles a session's input in order; every focus change
 * inside the page happens in that order, which the walks below rely on only up to the first time
 * focus leaves the page: coming back into it is asynchronous). Otherwise one press after the other.
 */
export class Keys {
  constructor(private readonly cdp: PageCdp) {}

  async tab(times: number, back: boolean, pipelined: boolean): Promise<void> {
    const session = await this.cdp.session();
    const key = { key: 'Tab', code: 'Tab', windowsVirtualKeyCode: 9, modifiers: back ? 8 : 0 };
    const press = () => [
      session.send('Input.dispatchKeyEvent', { type: 'rawKeyDown', ...key }),
      session.send('Input.dispatchKeyEvent', { type: 'keyUp', ...key }),
    ];
    if (pipelined) await Promise.all(Array.from({ length: times }).flatMap(press));
    else for (let i = 0; i < times; i += 1) await Promise.all(press());
  }
}

/**
 * Where a walk starts: forwards, the start of the document or of the open modal dialog (the rest of
 * the page is inert then), Tab then going to the first stop; backwards, a focusable mark put after
 * the last stop (removed again by `done`), Shift+Tab going to the last stop. The focus log emptied.
 */
async function startAt(page: Page, end: boolean): Promise<void> {
  await page.evaluate((atEnd) => {
    const scope = document.querySelector<HTMLElement>('dialog[open]') ?? document.body;
    if (atEnd) {
      const mark = document.createElement('span');
      mark.id = 'fd-a11y-walk-end';
      mark.tabIndex = 0;
      scope.append(mark);
      mark.focus();
    } else {
      scope.tabIndex = -1;
      scope.focus();
      scope.removeAttribute('tabindex');
    }
    if (window.__fdA11y) window.__fdA11y.focusLog.length = 0;
  }, end);
}

const done = (page: Page) => page.evaluate(() => document.getElementById('fd-a11y-walk-end')?.remove());

const focusLog = (page: Page) =>
  page.evaluate(() => {
    const log = [...(window.__fdA11y?.focusLog ?? [])];
    if (window.__fdA11y) window.__fdA11y.focusLog.length = 0;
    return log;
  });

/**
 * One walk, forwards or backwards, until focus leaves the page: the stops in order (without the
 * leaving), and whether it left at all within `limit` presses (a trap when not). The expected number
 * of presses go at once; if focus has not left by then (a stop more than expected, or a trap), one at a time.
 */
async function walk(page: Page, keys: Keys, back: boolean, expected: number, limit: number): Promise<{ stops: FocusStop[]; left: boolean }> {
  await startAt(page, back);
  const stops: FocusStop[] = [];
  try {
    for (let pressed = 0; pressed < limit;) {
      const batch = pressed === 0 ? Math.min(expected + 1, limit) : 1;
      await keys.tab(batch, back, pressed === 0);
      pressed += batch;
      for (const stop of await focusLog(page)) {
        if (stop.out) return { stops, left: true };
        stops.push(stop);
      }
    }
    return { stops, left: false };
  } finally {
    if (back) await done(page);
  }
}

/**
 * Tab and Shift+Tab over the state (Shift+Tab only when `back`: a state with errors shown has the
 * controls of the state before, walked both ways already), and what each stop shows. Leaves focus at
 * the top.
 */
export async function keyboardWalk(page: Page, keys: Keys, back = true): Promise<KeyboardFindings> {
  const found: KeyboardFindings = { reach: [], trap: [], order: [], visible: [], obscured: [], onFocus: [], stops: [] };
  const before = await page.evaluate(() => ({ url: location.href, changes: window.__fdA11y?.changes.length ?? 0, key: window.__fdA11y?.screenKey() ?? '' }));
  const expected = await page.evaluate(() => window.__fdA11y?.tabbables() ?? []);
  const limit = expected.length * 2 + 6;
  const forward = await walk(page, keys, false, expected.length, limit);
  found.stops = forward.stops;
  if (!forward.left) found.trap.push(`Tab never leaves the page: it cycles through ${[...new Set(forward.stops.map((s) => s.id))].slice(0, 6).join(', ')}`);
  const reached = new Set(forward.stops.map((s) => s.id));
  for (const id of expected) if (!reached.has(id)) found.reach.push(`${id} is not reached by Tab`);
  if (back) {
    const backward = await walk(page, keys, true, expected.length, limit);
    if (!backward.left) found.trap.push('Shift+Tab never leaves the page');
    const there = forward.stops.map((s) => s.id).join(' > ');
    const reversed = [...backward.stops]
      .reverse()
      .map((s) => s.id)
      .join(' > ');
    if (forward.left && backward.left && there !== reversed)
      found.order.push(`Shift+Tab goes back in another order: Tab ${there}; Shift+Tab reversed ${reversed}`);
  }
  for (const stop of forward.stops) {
    if (!stop.visible) found.visible.push(`focus on ${stop.id}, which is not visible`);
    else if (stop.ring === 'none') found.visible.push(`no focus indicator on ${stop.id}`);
    else if (stop.ring === 'shadow') found.visible.push(`focus on ${stop.id} is drawn by a shadow only (lost in forced colours)`);
    else if (stop.ringWidth < RING_MIN_WIDTH) found.visible.push(`focus ring on ${stop.id} is ${stop.ringWidth}px (needs ${RING_MIN_WIDTH})`);
    else if (stop.ringContrast !== null && stop.ringContrast < RING_MIN_CONTRAST)
      found.visible.push(`focus ring on ${stop.id} has ${stop.ringContrast}:1 against its background (needs ${RING_MIN_CONTRAST}:1)`);
    if (stop.obscured) found.obscured.push(`${stop.id} is hidden behind other content when focused`);
  }
  const after = await page.evaluate(() => ({ url: location.href, changes: window.__fdA11y?.changes.length ?? 0, key: window.__fdA11y?.screenKey() ?? '' }));
  if (after.url !== before.url || after.key !== before.key)
    found.onFocus.push(`moving focus changed the page: ${before.key} ${before.url} -> ${after.key} ${after.url}`);
  await startAt(page, false);
  return found;
}

/**
 * Arrows inside each radio group the walk met: Down moves focus to and checks another radio of the
 * group, Up goes back. Changes the state (a radio checked): run last on a state.
 */
export async function radioArrows(page: Page, stops: FocusStop[]): Promise<string[]> {
  const problems: string[] = [];
  for (const group of new Set(stops.flatMap((s) => (s.radioGroup ? [s.radioGroup] : [])))) {
    const radios = page.locator(`input[type=radio][name="${group}"]:visible`);
    if ((await radios.count()) < 2) continue;
    const start = stops.find((s) => s.radioGroup === group);
    await page.evaluate(
      ([name, id]) => {
        const group = Array.from(document.querySelectorAll<HTMLInputElement>(`input[type=radio][name="${CSS.escape(name)}"]`));
        group.find((radio) => window.__fdA11y?.describe(radio) === id)?.focus();
      },
      [group, start?.id ?? ''] as const,
    );
    const focused = () =>
      page.evaluate(() => ({
        id: document.activeElement ? (window.__fdA11y?.describe(document.activeElement) ?? '') : '',
        checked: (document.activeElement as HTMLInputElement | null)?.checked === true,
      }));
    const first = await focused();
    await page.keyboard.press('ArrowDown');
    const moved = await focused();
    if (moved.id === first.id || !moved.checked) problems.push(`ArrowDown in the radio group ${group} does not move to and check the next choice`);
    await page.keyboard.press('ArrowUp');
    if ((await focused()).id !== first.id) problems.push(`ArrowUp in the radio group ${group} does not go back`);
  }
  return problems;
}

/**
 * Where focus is after the latest change of screen or step that followed a visitor's key or click:
 * on the screen's heading or on one of its form fields (the one the step focuses, ui:autofocus, or the
 * first invalid one), never left behind on the page or on a control of the step before (WCAG 2.4.3,
 * 3.3.1). Nothing to say on a state reached by a page load alone.
 */
export async function focusAfterChange(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const probe = window.__fdA11y;
    const change = probe?.changes.at(-1);
    if (!probe || !change?.afterVisitor) return [];
    const root = probe.screenRoot();
    const active = document.activeElement;
    const where = active && active !== document.body ? probe.describe(active) : 'the page (nothing focused)';
    if (!root || !active || !root.contains(active)) return [`after moving to ${change.to}, focus is on ${where}, outside the screen`];
    const heading = root.querySelector('h1, h2');
    if (active === heading || active.matches('form input:not([type=hidden]), form select, form textarea')) return [];
    return [`after moving to ${change.to}, focus is on ${where}, not the heading or a field`];
  });
}

/**
 * The form submitted from the keyboard (focus on its submit button, Space), as a visitor without a
 * mouse would; true when there was a form. Afterwards focus must be on the first invalid field.
 */
export async function submitByKeyboard(page: Page): Promise<{ submitted: boolean; problems: string[] }> {
  const submit = page.locator('form.fd-form button[type="submit"]').first();
  if ((await submit.count()) === 0 || !(await submit.isVisible())) return { submitted: false, problems: [] };
  await submit.focus();
  await page.keyboard.press('Space');
  await page
    .locator('.fd-field__error, .fd-form-error, .fd-form-warning')
    .first()
    .waitFor({ state: 'visible', timeout: 3000 })
    .catch(() => undefined);
  const problems = await page.evaluate(() => {
    const probe = window.__fdA11y;
    const first = document.querySelector('.fd-field--invalid input:not([type=hidden]), .fd-field--invalid select, .fd-field--invalid textarea');
    const active = document.activeElement;
    const where = active && active !== document.body ? (probe?.describe(active) ?? active.tagName) : 'the page (nothing focused)';
    if (first && active !== first) return [`after a submit with errors, focus is on ${where}, not the first invalid field ${probe?.describe(first) ?? ''}`];
    if (!first && (!active || active === document.body)) return ['after a submit with errors, focus is lost'];
    return [];
  });
  return { submitted: true, problems };
}

/**
 * On input (WCAG 3.2.2): moving through a select's choices with the arrow keys (which, on a closed
 * select, changes its value) changes no context: the address, the page's language and the screen stay.
 * Each select once (`seen` holds those checked: the page frame's once per walk, a screen's once per
 * screen and step). Arrow down, then up; what the choices do meanwhile (show other fields) is content.
 * Changes the state: run at the end of a visit.
 */
export async function selectArrows(page: Page, seen: Set<string>): Promise<string[]> {
  const selects = await page.evaluate(() => {
    const probe = window.__fdA11y;
    if (!probe) return [];
    const root = probe.screenRoot();
    return Array.from(document.querySelectorAll('select'))
      .filter((el) => !el.multiple && !el.disabled && el.options.length > 1 && probe.visible(el) && !el.closest('[inert]'))
      .map((el) => ({
        id: probe.describe(el),
        key: root?.contains(el) ? `${probe.screenKey()} ${probe.describe(el)}` : `frame ${el.labels?.[0]?.textContent ?? ''}`,
      }));
  });
  const problems: string[] = [];
  const context = () =>
    page.evaluate(() => `${location.href} ${document.documentElement.lang} ${window.__fdA11y?.screenRoot()?.getAttribute('data-screen') ?? ''}`);
  // What a change sets off (a language loading, a call) is over when nothing is busy: then compare.
  const settled = () => page.waitForFunction(() => !document.querySelector('[aria-busy="true"]'));
  for (const select of selects) {
    if (seen.has(select.key)) continue;
    seen.add(select.key);
    const before = await context();
    await page.evaluate(
      (id) =>
        Array.from(document.querySelectorAll('select'))
          .find((el) => window.__fdA11y?.describe(el) === id)
          ?.focus(),
      select.id,
    );
    await page.keyboard.press('ArrowDown');
    await settled();
    const after = await context();
    if (after !== before) problems.push(`ArrowDown in ${select.id} changed the page: ${before} -> ${after}`);
    await page.keyboard.press('ArrowUp');
    await settled();
  }
  return problems;
}
