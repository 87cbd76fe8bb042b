/**
 * In-page functions of the layout checks (../layout.ts), sent to the page as source text with the
 * probe (../probe.ts): each uses only the DOM, the others of this file and `window.__fdA11y`.
 */

/** Sideways scrolling and text cut off by a box that clips it; in the page, names only. */
export function overflowProblems(): string[] {
  const problems: string[] = [];
  const width = window.innerWidth;
  if (document.documentElement.scrollWidth > width + 1) {
    const wide = Array.from(document.body.querySelectorAll('*'))
      .filter((el) => el.getBoundingClientRect().right > width + 1 && el.checkVisibility())
      .slice(-3)
      .map((el) => window.__fdA11y?.describe(el) ?? el.tagName);
    problems.push(`scrolls sideways (${document.documentElement.scrollWidth}px content in ${width}px): ${wide.join(', ')}`);
  }
  for (const el of Array.from(document.body.querySelectorAll<HTMLElement>('*'))) {
    if (el.matches('input, select, textarea, svg, svg *, .fd-visually-hidden, option') || !el.checkVisibility()) continue;
    const style = getComputedStyle(el);
    const clips = [style.overflowX, style.overflowY].some((value) => value === 'hidden' || value === 'clip');
    if (!clips || el.clientWidth <= 1 || !el.textContent?.trim()) continue;
    if (el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1)
      problems.push(
        `text cut off in ${window.__fdA11y?.describe(el) ?? el.tagName} (${el.scrollWidth}x${el.scrollHeight} in ${el.clientWidth}x${el.clientHeight})`,
      );
  }
  return problems;
}

/**
 * Pointer targets smaller than 24 x 24 px whose 24 px circle overlaps another target (WCAG 2.5.8);
 * links inside a sentence are exempt. A control's label counts as part of its target.
 */
export function targetProblems(min: number): string[] {
  const selector =
    'a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button], [role=link], [role=checkbox], [role=radio], [role=tab]';
  // With a modal dialog open, the page behind it is inert (no pointer reaches it): only the dialog's targets count.
  const modal = document.querySelector('dialog:modal');
  const targets = Array.from((modal ?? document).querySelectorAll<HTMLElement>(selector)).filter((el) => el.checkVisibility() && !el.closest('[inert]'));
  const boxOf = (el: HTMLElement) => {
    const rects = [el, ...Array.from((el as HTMLInputElement).labels ?? [])].map((part) => part.getBoundingClientRect());
    const left = Math.min(...rects.map((r) => r.left));
    const top = Math.min(...rects.map((r) => r.top));
    return { left, top, right: Math.max(...rects.map((r) => r.right)), bottom: Math.max(...rects.map((r) => r.bottom)) };
  };
  const inSentence = (el: HTMLElement) =>
    el.tagName === 'A' &&
    getComputedStyle(el).display === 'inline' &&
    (el.parentElement?.textContent?.trim().length ?? 0) > (el.textContent?.trim().length ?? 0);
  const boxes = targets.map((el) => ({ el, box: boxOf(el) }));
  const problems: string[] = [];
  for (const { el, box } of boxes) {
    const [w, h] = [box.right - box.left, box.bottom - box.top];
    if ((w >= min && h >= min) || inSentence(el)) continue;
    const [cx, cy] = [(box.left + box.right) / 2, (box.top + box.bottom) / 2];
    const crowded = boxes.some(({ el: other, box: b }) => {
      if (other === el || other.contains(el) || el.contains(other)) return false;
      const dx = Math.max(b.left - cx, 0, cx - b.right);
      const dy = Math.max(b.top - cy, 0, cy - b.bottom);
      const small = b.right - b.left < min || b.bottom - b.top < min;
      return Math.hypot(dx, dy) < (small ? min : min / 2);
    });
    if (crowded) problems.push(`${window.__fdA11y?.describe(el) ?? el.tagName} is ${Math.round(w)}x${Math.round(h)}px, too close to another target`);
  }
  return problems;
}

/** Style rules that depend on the orientation (WCAG 1.3.4: none may lock the page to one). */
export function orientationRules(): string[] {
  const found: string[] = [];
  const visit = (rules: CSSRuleList) => {
    for (const rule of Array.from(rules)) {
      if (rule instanceof CSSMediaRule && /orientation/.test(rule.conditionText)) found.push(`@media ${rule.conditionText}`);
      if (rule instanceof CSSGroupingRule) visit(rule.cssRules);
    }
  };
  for (const sheet of [...Array.from(document.styleSheets), ...document.adoptedStyleSheets]) {
    try {
      visit(sheet.cssRules);
    } catch {
      // Another origin's sheet: not ours.
    }
  }
  return found;
}

/** The font size (px) of every visible element with text of its own, in document order. */
export function textSizes(): number[] {
  const sizes: number[] = [];
  for (const el of Array.from(document.body.querySelectorAll<HTMLElement>('*'))) {
    const own = Array.from(el.childNodes).some((node) => node.nodeType === Node.TEXT_NODE && node.textContent?.trim());
    if (own && el.checkVisibility() && !el.closest('.fd-visually-hidden')) sizes.push(parseFloat(getComputedStyle(el).fontSize));
  }
  return sizes;
}

/** Text that did not grow with the browser's text size: the elements whose size grew less than `factor`. */
export function textNotGrown(before: number[], factor: number): string[] {
  const problems: string[] = [];
  let i = 0;
  for (const el of Array.from(document.body.querySelectorAll<HTMLElement>('*'))) {
    const own = Array.from(el.childNodes).some((node) => node.nodeType === Node.TEXT_NODE && node.textContent?.trim());
    if (!own || !el.checkVisibility() || el.closest('.fd-visually-hidden')) continue;
    const was = before[i] ?? 0;
    i += 1;
    if (was > 0 && parseFloat(getComputedStyle(el).fontSize) < was * factor)
      problems.push(`text in ${window.__fdA11y?.describe(el) ?? el.tagName} does not grow with the text size`);
  }
  return problems;
}

/** Adds (or, with an empty text, removes) a constructed style sheet: CSP allows it, unlike a <style>. */
export function overrideStyles(css: string): void {
  const marked = document.adoptedStyleSheets.filter((sheet) => !(sheet as CSSStyleSheet & { fdA11y?: boolean }).fdA11y);
  if (!css) {
    document.adoptedStyleSheets = marked;
    return;
  }
  const sheet = Object.assign(new CSSStyleSheet(), { fdA11y: true });
  sheet.replaceSync(css);
  document.adoptedStyleSheets = [...marked, sheet];
}
