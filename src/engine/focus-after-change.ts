import { useEffect, type RefObject } from 'react';

/**
 * Where focus goes when the screen or its step changes (WCAG 2.4.3, and 3.3.1 for the screens a
 * result leads to): a keyboard or screen-reader visitor must not be left on nothing once the control
 * they used is gone. A new step's field that took focus (ui:autofocus) keeps it; focus on nothing or
 * still in the card moves to the card's heading (tabindex -1, set here, not rendered, so the
 * prerendered markup stays the same), which screen readers then read out. Focus outside the card is
 * left where it is, and so is the first screen of a page load: the browser starts at the top of a
 * new page, as it does everywhere.
 */
let screenShown = false;

const FIELD = 'input:not([type="hidden"]), select, textarea';

export function useFocusAfterChange(key: string, card: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const first = !screenShown;
    screenShown = true;
    const root = card.current;
    if (first || !root) return;
    const active = document.activeElement;
    const lost = !active || active === document.body;
    // Focus elsewhere on the page (the language picker, the studio's editor beside its preview) stays there.
    if (!lost && !root.contains(active)) return;
    if (active && root.contains(active) && active.matches(FIELD)) return;
    focusStepStart(root, root.querySelector<HTMLElement>('h1, h2'));
  }, [key, card]);
}

/**
 * Where a step starts: its field marked to take focus (ui:autofocus) that has not (a renderer that
 * writes the attribute rather than focusing on mount, the browser build's Preact, leaves that to the
 * page), else its heading (tabindex -1, set here, not rendered).
 */
export function focusStepStart(root: HTMLElement, heading: HTMLElement | null): void {
  const marked = root.querySelector<HTMLElement>(`:is(${FIELD})[autofocus]`);
  if (marked) return marked.focus();
  if (!heading) return;
  heading.setAttribute('tabindex', '-1');
  heading.focus();
}
