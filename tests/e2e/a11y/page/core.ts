import type { FocusStop } from '../probe';

/**
 * In-page functions of the accessibility probe (../probe.ts): colours and contrast, what an element
 * is called, where focus is drawn. Each uses only the DOM, the others of this file and
 * `window.__fdA11y`: they are sent to the page as their source text.
 */

/** [r, g, b, a] of a CSS colour: computed styles give rgb()/rgba(); anything else goes through a canvas, which normalises it. */
export function probeRgba(colour: string): number[] | null {
  let text = colour.trim();
  if (!/^rgba?\(/.test(text)) {
    const ctx = document.createElement('canvas').getContext('2d');
    if (!ctx) return null;
    ctx.fillStyle = colour;
    text = String(ctx.fillStyle);
    const hex = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(text);
    if (hex) return [parseInt(hex[1] ?? '0', 16), parseInt(hex[2] ?? '0', 16), parseInt(hex[3] ?? '0', 16), 1];
  }
  const parts =
    /rgba?\(([^)]+)\)/
      .exec(text)?.[1]
      ?.split(/[\s,/]+/)
      .filter(Boolean)
      .map(Number) ?? [];
  return parts.length >= 3 ? [parts[0] ?? 0, parts[1] ?? 0, parts[2] ?? 0, parts[3] ?? 1] : null;
}

/** WCAG relative luminance of an opaque colour. */
export function probeLuminance(rgb: number[]): number {
  const channel = (value: number) => {
    const c = value / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(rgb[0] ?? 0) + 0.7152 * channel(rgb[1] ?? 0) + 0.0722 * channel(rgb[2] ?? 0);
}

/** The contrast ratio of two colours (the first composited on the second when translucent). */
export function probeContrast(foreground: string, background: string): number | null {
  const fg = probeRgba(foreground);
  const bg = probeRgba(background);
  if (!fg || !bg) return null;
  const alpha = fg[3] ?? 1;
  const mixed = [0, 1, 2].map((i) => (fg[i] ?? 0) * alpha + (bg[i] ?? 0) * (1 - alpha));
  const [a, b] = [probeLuminance(mixed), probeLuminance(bg)];
  return Math.round(((Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05)) * 100) / 100;
}

/**
 * The colour painted behind an element (its ancestors' backgrounds composited over the canvas),
 * as rgb(); null when an ancestor paints an image or gradient there (it cannot be known from styles).
 */
export function probeBehind(el: Element): string | null {
  const layers: number[][] = [];
  for (let node: Element | null = el; node; node = node.parentElement) {
    const style = getComputedStyle(node);
    if (style.backgroundImage !== 'none') return null;
    const colour = probeRgba(style.backgroundColor);
    if (colour && (colour[3] ?? 0) > 0) layers.push(colour);
    if (colour && colour[3] === 1) break;
  }
  const canvas = probeRgba(getComputedStyle(document.documentElement).backgroundColor);
  let rgb = canvas && canvas[3] === 1 ? canvas.slice(0, 3) : [255, 255, 255];
  for (const layer of layers.reverse()) {
    const alpha = layer[3] ?? 1;
    rgb = rgb.map((value, i) => (layer[i] ?? 0) * alpha + value * (1 - alpha));
  }
  return `rgb(${rgb.map((value) => Math.round(value)).join(', ')})`;
}

export function probeVisible(el: Element): boolean {
  const rect = el.getBoundingClientRect();
  return rect.width > 0 && rect.height > 0 && el.checkVisibility({ visibilityProperty: true });
}

/** The screen on show: the open dialog's screen, else the page's card. */
export function probeScreenRoot(): Element | null {
  return document.querySelector('dialog[open] [data-screen]') ?? document.querySelector('[data-screen]');
}

export function probeScreenKey(): string {
  const root = probeScreenRoot();
  return root ? `${root.getAttribute('data-screen') ?? ''}/${root.getAttribute('data-step') ?? ''}` : '';
}

/** A stable, readable name: tag, then id (or name), then its first words. */
export function probeDescribe(el: Element): string {
  const tag = el.tagName.toLowerCase();
  const key = el.id ? `#${el.id}` : el.getAttribute('name') ? `[name=${el.getAttribute('name')}]` : '';
  const text = (el.getAttribute('aria-label') ?? el.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 40);
  return `${tag}${key}${text ? ` "${text}"` : ''}`;
}

/** The focus ring: on the element, or (a control inside a styled label or card) on a near ancestor. */
export function probeRing(el: Element): Pick<FocusStop, 'ring' | 'ringWidth' | 'ringContrast'> {
  let shadow = false;
  for (let node: Element | null = el, depth = 0; node && depth < 4; node = node.parentElement, depth += 1) {
    const style = getComputedStyle(node);
    const width = parseFloat(style.outlineWidth);
    if (style.outlineStyle !== 'none' && width > 0) {
      // An outline drawn outside the element covers what is behind it; one drawn inside, its own background.
      const behind = parseFloat(style.outlineOffset) >= 0 ? probeBehind(node.parentElement ?? node) : probeBehind(node);
      return { ring: 'outline', ringWidth: width, ringContrast: behind ? probeContrast(style.outlineColor, behind) : null };
    }
    if (style.boxShadow !== 'none' && node === el) shadow = true;
  }
  return { ring: shadow ? 'shadow' : 'none', ringWidth: 0, ringContrast: null };
}

/** Entirely covered by other content (WCAG 2.4.11): the centre and four inner corners all belong to something else. */
export function probeObscured(el: Element): boolean {
  el.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  const rect = el.getBoundingClientRect();
  if (rect.width === 0 || rect.height === 0) return false;
  const inset = Math.min(2, rect.width / 4, rect.height / 4);
  const points = [
    [rect.left + rect.width / 2, rect.top + rect.height / 2],
    [rect.left + inset, rect.top + inset],
    [rect.right - inset, rect.top + inset],
    [rect.left + inset, rect.bottom - inset],
    [rect.right - inset, rect.bottom - inset],
  ];
  const labels = el instanceof HTMLInputElement ? Array.from(el.labels ?? []) : [];
  return points.every(([x, y]) => {
    const top = document.elementFromPoint(x ?? 0, y ?? 0);
    return top !== null && !el.contains(top) && !top.contains(el) && !labels.some((label) => label.contains(top));
  });
}

export function probeStop(el: Element): FocusStop {
  const root = probeScreenRoot();
  const radio = el instanceof HTMLInputElement && el.type === 'radio' ? el : undefined;
  return {
    id: probeDescribe(el),
    visible: probeVisible(el),
    inScreen: root !== null && root.contains(el),
    ...probeRing(el),
    obscured: probeObscured(el),
    ...(radio ? { radioGroup: radio.name, checked: radio.checked } : {}),
  };
}

/**
 * What Tab should reach: every visible, enabled control outside inert content (inside the open
 * modal dialog when there is one), a radio group once (its checked radio, else its first).
 */
export function probeTabbables(): string[] {
  const scope = document.querySelector('dialog[open]') ?? document;
  const selector = 'a[href], button, input:not([type=hidden]), select, textarea, summary, [tabindex], [contenteditable=true]';
  const groups = new Set<string>();
  const out: string[] = [];
  for (const el of Array.from(scope.querySelectorAll<HTMLElement>(selector))) {
    if (el.tabIndex < 0 || el.closest('[inert]') || (el as HTMLButtonElement).disabled || !probeVisible(el)) continue;
    if (el instanceof HTMLInputElement && el.type === 'radio') {
      if (groups.has(el.name)) continue;
      const group = Array.from(scope.querySelectorAll<HTMLInputElement>(`input[type=radio][name="${CSS.escape(el.name)}"]`));
      groups.add(el.name);
      out.push(probeDescribe(group.find((radio) => radio.checked) ?? el));
      continue;
    }
    out.push(probeDescribe(el));
  }
  return out;
}

/** What an input's autocomplete token says it holds, for redundant entry; undefined for secrets and codes. */
export function probeToken(el: HTMLInputElement): string | undefined {
  const token = (el.getAttribute('autocomplete') ?? '')
    .split(/\s+/)
    .filter((part) => part && part !== 'webauthn')
    .pop();
  if (!token || ['off', 'on', 'current-password', 'new-password', 'one-time-code'].includes(token) || el.type === 'password') return undefined;
  return token === 'username' ? 'email' : token;
}

/** The names of the page frame's controls (outside the screen), in document order: language, help, contact. */
export function probeFrameControls(): string[] {
  const root = probeScreenRoot();
  const dialog = document.querySelector('dialog[open]');
  return Array.from(document.querySelectorAll<HTMLElement>('a[href], button, select, input'))
    .filter((el) => probeVisible(el) && !(root && root.contains(el)) && !(dialog && dialog.contains(el)))
    .map(
      (el) =>
        (el.getAttribute('aria-label') ??
          Array.from((el as HTMLInputElement).labels ?? [])
            .map((l) => l.textContent)
            .join(' ') ??
          '') ||
        (el.textContent ?? ''),
    )
    .map((name) => name.replace(/\s+/g, ' ').trim());
}
