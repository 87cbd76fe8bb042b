import type { Page } from '@playwright/test';

/**
 * Accessible authentication (WCAG 3.3.8) on a screen state: a real paste (the clipboard and Ctrl+V,
 * as a password manager or a visitor copying a code does) arrives in every password and one-time-code
 * field; each field gets its value back afterwards. The context must allow the clipboard
 * (grantPermissions, once). The token and wiring checks run in the page (./page/forms.ts).
 */
export async function pasteIntoSecrets(page: Page): Promise<string[]> {
  const ids = await page.evaluate(() => window.__fdA11y?.secretFields() ?? []);
  const problems: string[] = [];
  if (ids.length === 0) return problems;
  for (const id of ids) {
    const field = page.locator(`[id="${id}"]`);
    const before = await field.inputValue();
    // Five digits: a code field that submits itself when full must not be set off.
    const sample = (await field.getAttribute('autocomplete')) === 'one-time-code' ? '12345' : 'Pasted-Secret-9';
    await page.evaluate((text) => navigator.clipboard.writeText(text), sample);
    await field.focus();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.press('ControlOrMeta+V');
    const after = await field.inputValue();
    if (after !== sample) problems.push(`${id}: "${sample}" pasted, the field shows "${after}"`);
    await field.fill(before);
  }
  return problems;
}
