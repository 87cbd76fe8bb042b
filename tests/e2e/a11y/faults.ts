import type { Page } from '@playwright/test';
import type { CheckId } from './checks';

/**
 * The control of the walk's checks beyond axe (tests/e2e/a11y-checks.spec.ts): a sign-in page made to
 * fail each of them, in the page. Elements are made with the DOM and styled through CSSOM, and styles
 * added as a constructed sheet: the page's CSP and Trusted Types refuse markup and style attributes.
 * The checks it must set off are FAULTED.
 */
export const FAULTED: CheckId[] = [
  'focus-visible',
  'focus-not-obscured',
  'input-purpose',
  'errors',
  'on-focus',
  'on-input',
  'page-title',
  'target-size',
  'names',
  'forced-colours',
  'reflow',
  'text-resize',
  'text-spacing',
  'keyboard-trap',
  'keyboard-reach',
  'authentication',
  'motion',
  'orientation',
  'redundant-entry',
];

export async function injectFaults(page: Page): Promise<void> {
  await page.evaluate(() => {
    const probe = window.__fdA11y;
    const form = document.querySelector('form.fd-form');
    if (!probe || !form) throw new Error('no probe or form');
    // Elements made with the DOM and styled through CSSOM: the page's CSP and Trusted Types refuse markup and style attributes.
    const add = (tag: string, text: string, style: Partial<CSSStyleDeclaration> = {}, parent: Element = form) => {
      const el = document.createElement(tag);
      el.textContent = text;
      if (el instanceof HTMLButtonElement) el.type = 'button';
      Object.assign(el.style, style);
      parent.append(el);
      return el;
    };
    // No focus ring; two tiny buttons side by side; an unnamed button; a border-less button.
    add('button', 'Ringless', { outline: 'none' }).id = 'ringless';
    const pair = add('span', '');
    for (const letter of ['a', 'b']) add('button', letter, { width: '10px', height: '10px', padding: '0', minHeight: '0' }, pair);
    add('button', '').className = 'fd-button fd-button--secondary';
    add('button', 'Flat', { border: 'none' });
    // Text cut off; text that does not grow with the browser's text size; a box wider than 320 px.
    add('div', 'A sentence far too long for its box', { width: '60px', overflow: 'hidden', whiteSpace: 'nowrap' });
    add('p', 'Fixed size', { fontSize: '14px' });
    add('div', 'Wide', { width: '600px' });
    // A button under a cover; an email field without its token, marked invalid with no error; a field
    // whose focus changes the address; a page title without the page.
    const covered = add('span', '', { position: 'relative', display: 'inline-block' });
    add('button', 'Covered', {}, covered);
    add('span', '', { position: 'absolute', inset: '0', background: 'gray' }, covered);
    const email = add('input', '');
    Object.assign(email, { type: 'email', autocomplete: 'off' });
    email.setAttribute('aria-label', 'Other email');
    email.setAttribute('aria-invalid', 'true');
    email.addEventListener('focus', () => history.replaceState(history.state, '', '#focused'));
    document.title = ' | Front Door';
    // A select whose choice, even one moved to with the arrows, changes the address.
    const select = add('select', '');
    select.setAttribute('aria-label', 'Jump');
    for (const value of ['one', 'two']) add('option', value, {}, select);
    select.addEventListener('change', () => history.replaceState(history.state, '', `#${(select as HTMLSelectElement).value}`));
    // A trap: Tab on this field comes back to it; paste refused in the password field.
    const trap = add('input', '');
    trap.setAttribute('aria-label', 'Trap');
    trap.addEventListener('keydown', (event) => {
      if (event.key === 'Tab') event.preventDefault();
    });
    document.getElementById('fd_credentials_password')?.addEventListener('paste', (event) => event.preventDefault());
    // Endless motion; an orientation rule; the email asked for again after an earlier step.
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(
      '@keyframes fd-spin-test { to { transform: rotate(1turn) } } #ringless { animation: fd-spin-test 1s infinite linear } @media (orientation: portrait) { #ringless { color: inherit } }',
    );
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
    probe.typed.email = { value: 'someone@example.com', where: 'earlier/step' };
  });
}
