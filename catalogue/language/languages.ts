/**
 * Which of the languages we have a visitor gets, one rule for the app (the browser's languages,
 * src/app/i18n.ts) and the server (the Accept-Language header of the page's request, server/spa/html.ts),
 * so the page the server writes is in the language the app then shows: the first preferred tag we
 * have, else one of the same base language, else the default.
 */
export function pickLanguage(preferred: readonly string[], available: readonly string[], fallback: string): string {
  for (const raw of preferred) {
    const tag = raw.trim().toLowerCase();
    if (available.includes(tag)) return tag;
    const base = tag.split('-')[0];
    const sameBase = available.find((lang) => lang.split('-')[0] === base);
    if (sameBase) return sameBase;
  }
  return fallback;
}

/** An Accept-Language header's tags, most wanted first (q=0 and '*' are no wish). */
export function acceptedLanguages(header: string): string[] {
  return header
    .split(',')
    .map((part) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = Number(/q=([\d.]+)/.exec(params.join(';'))?.[1] ?? 1);
      return { tag: tag.trim().toLowerCase(), q: Number.isFinite(q) ? q : 0 };
    })
    .filter((entry) => entry.tag && entry.tag !== '*' && entry.q > 0)
    .sort((a, b) => b.q - a.q)
    .map((entry) => entry.tag);
}
