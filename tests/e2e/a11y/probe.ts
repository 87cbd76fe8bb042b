import type { BrowserContext } from '@playwright/test';
import {
  probeContrast,
  probeDescribe,
  probeFrameControls,
  probeLuminance,
  probeBehind,
  probeObscured,
  probeRgba,
  probeRing,
  probeScreenKey,
  probeScreenRoot,
  probeStop,
  probeTabbables,
  probeToken,
  probeVisible,
} from './page/core';
import { errorWiringProblems, formFields, inputPurposeProblems, pasteBlocked, redundantEntryProblems, secretFields } from './page/forms';
import { orientationRules, overflowProblems, overrideStyles, targetProblems, textNotGrown, textSizes } from './page/layout';
import { endlessMotion, forcedColourProblems, reducedMotion, ringsOf } from './page/modes';

/**
 * The accessibility walk's helper inside the page (tests/e2e/a11y.spec.ts): put into every document
 * of the walk's browser context before the app's scripts (an init script, which the page's CSP does
 * not govern), so each check is one short page.evaluate calling `window.__fdA11y`, and what happens
 * between checks is on record: every focus change (the keyboard walks read it after a run of key
 * presses, one evaluate per run, not per key), every change of screen or step after a visitor's key
 * or click (where focus went then), every value typed (redundant entry).
 *
 * The in-page functions are plain function declarations in ./page/ (core, layout, modes, forms),
 * sent as their source text (probeSource), each reachable as `window.__fdA11y.<name>` (PAGE_API).
 */

/** One stop of a keyboard walk, recorded when focus arrives. */
export interface FocusStop {
  /** A readable and stable name of the element: tag, id or name, text. */
  id: string;
  /** The window lost focus to the browser: the walk left the page. */
  out?: boolean;
  visible: boolean;
  /** Inside the screen on show (its card, or the open dialog). */
  inScreen: boolean;
  /** How the focus is drawn: an outline (on the element or its label or card), else a shadow, else nothing. */
  ring: 'outline' | 'shadow' | 'none';
  ringWidth: number;
  /** The ring's colour against what is behind it (the unfocused pixels); null when it cannot be known. */
  ringContrast: number | null;
  /** Hidden behind other content (WCAG 2.4.11): every sampled point of it is covered by something else. */
  obscured: boolean;
  /** For a radio: its group's name (Tab reaches a group once, arrows move inside it). */
  radioGroup?: string;
  checked?: boolean;
}

export interface ScreenChange {
  from: string;
  to: string;
  /** A visitor's key or click came before it (not the page's own start). */
  afterVisitor: boolean;
}

/** What the checks call in the page, by name; the source of each goes into the page (probeSource). */
const PAGE_API = {
  stop: probeStop,
  ring: probeRing,
  screenKey: probeScreenKey,
  screenRoot: probeScreenRoot,
  tabbables: probeTabbables,
  describe: probeDescribe,
  visible: probeVisible,
  contrast: probeContrast,
  behind: probeBehind,
  token: probeToken,
  frameControls: probeFrameControls,
  overflow: overflowProblems,
  targets: targetProblems,
  orientation: orientationRules,
  textSizes,
  textNotGrown,
  overrideStyles,
  forcedColours: forcedColourProblems,
  ringsOf,
  endlessMotion,
  reducedMotion,
  inputPurpose: inputPurposeProblems,
  pasteBlocked,
  secretFields,
  errorWiring: errorWiringProblems,
  redundantEntry: redundantEntryProblems,
};
/** Functions the API's functions call by name. */
const HELPERS = [probeRgba, probeLuminance, probeObscured, formFields];

export type Probe = typeof PAGE_API & {
  focusLog: FocusStop[];
  changes: ScreenChange[];
  /** Values typed, by autocomplete token: the value and the screen/step where it was typed. */
  typed: Record<string, { value: string; where: string }>;
};

declare global {
  interface Window {
    __fdA11y?: Probe;
  }
}

/** Records focus changes, screen changes after a visitor's key or click, and typed values. */
function probeInstall(api: Omit<Probe, 'focusLog' | 'changes' | 'typed'>): void {
  if (window.__fdA11y) return;
  let visitorActed = false;
  let key = '';
  const probe: Probe = { ...api, focusLog: [], changes: [], typed: {} };
  window.__fdA11y = probe;
  for (const type of ['keydown', 'pointerdown']) window.addEventListener(type, (event) => void (event.isTrusted && (visitorActed = true)), true);
  document.addEventListener('focusin', (event) => void (event.target instanceof Element && probe.focusLog.push(probe.stop(event.target))), true);
  // Focus leaving the page (past the last control, to the browser's own controls).
  window.addEventListener('blur', () =>
    probe.focusLog.push({ id: '(left the page)', out: true, visible: false, inScreen: false, ring: 'none', ringWidth: 0, ringContrast: null, obscured: false }),
  );
  document.addEventListener(
    'input',
    (event) => {
      const el = event.target;
      if (!event.isTrusted || !(el instanceof HTMLInputElement)) return;
      const token = probe.token(el);
      if (token && el.value) probe.typed[token] = { value: el.value, where: probe.screenKey() };
    },
    true,
  );
  new MutationObserver(() => {
    const now = probe.screenKey();
    if (now === key) return;
    probe.changes.push({ from: key, to: now, afterVisitor: visitorActed });
    key = now;
  }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-screen', 'data-step', 'open'] });
}

/** The probe as one script: every function, then the install call with the API by name. */
export const probeSource = `(() => {
${[...Object.values(PAGE_API), ...HELPERS, probeInstall].map(String).join('\n')}
probeInstall({ ${Object.entries(PAGE_API)
  .map(([name, fn]) => `${name}: ${fn.name}`)
  .join(', ')} });
})();`;

export async function installProbe(context: BrowserContext): Promise<void> {
  await context.addInitScript({ content: probeSource });
}
