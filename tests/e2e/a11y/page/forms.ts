/**
 * In-page functions of the form checks (../forms.ts), sent to the page as source text with the probe
 * (../probe.ts): each uses only the DOM, the others of this file and `window.__fdA11y`.
 */

export function formFields(): HTMLInputElement[] {
  return Array.from(document.querySelectorAll<HTMLInputElement>('input, select, textarea')).filter((el) => el.type !== 'hidden' && el.checkVisibility());
}

/** The autocomplete tokens a password, email or code input must carry (WCAG 1.3.5; and 3.3.8: the password manager fills them). */
export function inputPurposeProblems(): string[] {
  const problems: string[] = [];
  for (const input of formFields()) {
    const name = input.id || input.name;
    const ac = input.getAttribute('autocomplete') ?? '';
    if (input.type === 'password' && !['current-password', 'new-password'].includes(ac)) problems.push(`${name}: password input has autocomplete "${ac}"`);
    // 'webauthn' after the token: the browser also offers passkeys in the field's autofill list.
    if (input.type === 'email' && !['username', 'email', 'username webauthn'].includes(ac)) problems.push(`${name}: email input has autocomplete "${ac}"`);
    if (input.type === 'tel' && !ac.startsWith('tel')) problems.push(`${name}: phone input has autocomplete "${ac}"`);
    if (input.getAttribute('inputmode') === 'numeric' && input.maxLength === 6 && ac !== 'one-time-code')
      problems.push(`${name}: code input has autocomplete "${ac}"`);
  }
  return problems;
}

/** A paste the page cancels (every field: WCAG 3.3.8 wants codes and passwords pasted, and nothing gains by refusing it elsewhere). */
export function pasteBlocked(): string[] {
  const problems: string[] = [];
  for (const input of formFields()) {
    const paste = new ClipboardEvent('paste', { bubbles: true, cancelable: true, clipboardData: new DataTransfer() });
    if (!input.dispatchEvent(paste)) problems.push(`${input.id || input.name}: paste is blocked`);
  }
  return problems;
}

/** The password and one-time-code fields, by id: each gets a real paste (../forms.ts). */
export function secretFields(): string[] {
  return formFields()
    .filter((input) => !input.readOnly && !input.disabled && (input.type === 'password' || input.getAttribute('autocomplete') === 'one-time-code'))
    .map((input) => input.id)
    .filter(Boolean);
}

/** Errors identified in text, linked to their field and announced (WCAG 3.3.1, 1.3.1, 4.1.3). */
export function errorWiringProblems(): string[] {
  const problems: string[] = [];
  for (const input of formFields()) {
    if (input.getAttribute('aria-invalid') !== 'true') continue;
    const name = input.id || input.name;
    const described = (input.getAttribute('aria-describedby') ?? '')
      .split(/\s+/)
      .filter(Boolean)
      .map((id) => document.getElementById(id));
    const error = described.find((el) => el?.classList.contains('fd-field__errors'));
    if (!error || !error.textContent?.trim()) problems.push(`${name}: invalid, but no error text is linked with aria-describedby`);
    else if (!error.closest('[role=alert], [aria-live]')) problems.push(`${name}: its error is not in a live region`);
  }
  for (const error of Array.from(document.querySelectorAll('.fd-form-error, .fd-form-warning, .fd-field__error, .fd-message'))) {
    if (error.checkVisibility() && !error.closest('[role=alert], [role=status], [aria-live]')) problems.push(`"${error.textContent}" is not announced`);
  }
  return problems;
}

/**
 * Redundant entry (WCAG 3.3.7): a field of this step asking again, empty, for what the visitor typed
 * on an earlier step of this page (by autocomplete token; passwords and codes excepted, as the
 * criterion allows).
 */
export function redundantEntryProblems(): string[] {
  const probe = window.__fdA11y;
  if (!probe) return [];
  const here = probe.screenKey();
  const problems: string[] = [];
  for (const input of formFields()) {
    const token = probe.token(input);
    const earlier = token ? probe.typed[token] : undefined;
    if (earlier && earlier.where !== here && !input.value && !input.readOnly)
      problems.push(`${input.id || input.name} asks again for the ${token} typed on ${earlier.where}`);
  }
  return problems;
}
