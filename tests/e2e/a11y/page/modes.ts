/**
 * In-page functions of the forced-colours and reduced-motion checks (../modes.ts), sent to the page
 * as source text with the probe (../probe.ts): each uses only the DOM, the others of this file and
 * `window.__fdA11y`.
 */

/**
 * Under forced colours (Windows high contrast) the browser paints system colours and drops shadows
 * and background images: every control must keep a boundary of its own (a border), since its fill no
 * longer tells it apart (links and radios and checkboxes, which the system draws, excepted), and
 * meaningful pictures must still show (an SVG image painted in fixed colours must opt out of the
 * forcing, forced-color-adjust: none, on a plate of its own, like the QR code).
 */
export function forcedColourProblems(): string[] {
  const problems: string[] = [];
  const describe = (el: Element) => window.__fdA11y?.describe(el) ?? el.tagName;
  const controls = document.querySelectorAll<HTMLElement>(
    'button, input:not([type=hidden]):not([type=radio]):not([type=checkbox]), select, textarea, [role=button]',
  );
  for (const el of Array.from(controls)) {
    if (!el.checkVisibility() || el.closest('[inert]') || el.matches('.fd-button--link')) continue;
    // An icon button inside a field (the password toggle) is drawn by its icon, in the text colour.
    const iconOnly = !el.textContent?.trim() && el.querySelector('svg') !== null;
    const style = getComputedStyle(el);
    const sides = ['Top', 'Right', 'Bottom', 'Left'] as const;
    const bordered = sides.some(
      (side) =>
        style.getPropertyValue(`border-${side.toLowerCase()}-style`) !== 'none' && parseFloat(style.getPropertyValue(`border-${side.toLowerCase()}-width`)) > 0,
    );
    if (!bordered && !iconOnly) problems.push(`${describe(el)} has no border in forced colours: its shape disappears`);
  }
  for (const svg of Array.from(document.querySelectorAll('svg[role=img], img'))) {
    if (!svg.checkVisibility()) continue;
    const style = getComputedStyle(svg);
    if (svg.tagName.toLowerCase() === 'img' || style.getPropertyValue('forced-color-adjust') === 'none') continue;
    const colour = style.color;
    const painted = Array.from(svg.querySelectorAll('path, rect, circle, polygon, ellipse, line, polyline')).filter((shape) => {
      const s = getComputedStyle(shape);
      return (s.fill !== 'none' && s.fill !== colour) || (s.stroke !== 'none' && s.stroke !== colour);
    });
    if (painted.length > 0) problems.push(`${describe(svg)} is painted in fixed colours under forced colours`);
  }
  return problems;
}

/** The focus ring of each element (by its described name) when focused from script after a key press. */
export function ringsOf(ids: string[]): Array<{ id: string; ring: string; width: number }> {
  const probe = window.__fdA11y;
  if (!probe) return [];
  const all = Array.from(document.querySelectorAll<HTMLElement>('a[href], button, input, select, textarea, summary, [tabindex]'));
  const rings: Array<{ id: string; ring: string; width: number }> = [];
  for (const id of ids) {
    const el = all.find((candidate) => probe.describe(candidate) === id);
    if (!el) continue;
    el.focus({ focusVisible: true } as FocusOptions);
    const ring = probe.ring(el);
    rings.push({ id, ring: ring.ring, width: ring.ringWidth });
  }
  (document.activeElement as HTMLElement | null)?.blur();
  return rings;
}

/** Animations running for ever (WCAG 2.2.2), a busy indicator excepted: from the running animations alone. */
export function endlessMotion(): string[] {
  const problems: string[] = [];
  for (const animation of document.getAnimations()) {
    const target = animation.effect instanceof KeyframeEffect ? animation.effect.target : null;
    if (!target || animation.effect?.getTiming().iterations !== Infinity) continue;
    const busy = target.closest('[aria-busy=true], .fd-loading, [role=progressbar]') !== null || target.classList.contains('fd-spinner');
    if (!busy) problems.push(`${window.__fdA11y?.describe(target) ?? target.tagName} moves for ever and is no busy indicator`);
  }
  return problems;
}

/**
 * Under prefers-reduced-motion: reduce, what would still move: any element with a CSS animation or a
 * transition longer than a frame (WCAG 2.3.3, and what the design promises).
 */
export function reducedMotion(): string[] {
  const problems: string[] = [];
  const seconds = (value: string) => Math.max(...value.split(',').map((part) => (part.trim().endsWith('ms') ? parseFloat(part) / 1000 : parseFloat(part))));
  for (const el of Array.from(document.querySelectorAll<HTMLElement>('*'))) {
    const style = getComputedStyle(el);
    const animated = style.animationName !== 'none' && seconds(style.animationDuration) > 0.02;
    const transition = style.transitionProperty !== 'none' && seconds(style.transitionDuration) > 0.02;
    if ((animated || transition) && el.checkVisibility())
      problems.push(
        `${window.__fdA11y?.describe(el) ?? el.tagName} ${animated ? `is animated (${style.animationName})` : `has a ${style.transitionDuration} transition`} under reduced motion`,
      );
  }
  return problems;
}
