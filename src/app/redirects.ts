/**
 * Where the browser may be sent. return_to / redirect_uri come from the query string and are
 * attacker-controlled, so only same-site targets survive; anything doubtful becomes the default.
 * Where a signed-in visitor goes (help centre, academy, landing pages) is ./return-to.ts, loaded
 * only after a sign-in.
 */
export const CONTROL_OR_BACKSLASH = /[\u0000-\u001f\u007f\\]/;

/**
 * The raw return target of a screen's query string (SPEC §2): return_to, else redirect_uri, as some
 * products name it. The one place these names are read (src/app/vocabulary.json declares them for
 * the catalogue check); what is done with the value (a same-site path, a help-centre or academy URL, or
 * nothing when it is too long or doubtful) is sameSitePath's and ./after-sign-in.ts's to decide.
 */
export function returnToIn(query: Readonly<Record<string, string | undefined>>): string | undefined {
  return query.return_to ?? query.redirect_uri;
}

/** A same-site path (with query and hash) for a raw return_to value, or undefined. */
export function sameSitePath(raw: string | null | undefined, origin: string): string | undefined {
  if (!raw) return undefined;
  const value = raw.trim();
  if (value === '' || value.length > 2048 || CONTROL_OR_BACKSLASH.test(value)) return undefined;
  let decoded = value;
  try {
    decoded = decodeURIComponent(value);
  } catch {
    return undefined;
  }
  // '//host', '/\host' and their encoded forms are protocol-relative: another site.
  if (decoded.startsWith('//') || CONTROL_OR_BACKSLASH.test(decoded)) return undefined;
  let url: URL;
  try {
    url = new URL(value, origin);
  } catch {
    return undefined;
  }
  if (url.origin !== origin || (url.protocol !== 'http:' && url.protocol !== 'https:')) return undefined;
  // Dot segments can collapse to '//host' ('/.//evil.com', '/x/..//evil.com'): not a path either.
  if (url.pathname.startsWith('//')) return undefined;
  if (!value.startsWith('/') && !value.toLowerCase().startsWith(origin.toLowerCase() + '/')) return undefined;
  return url.pathname + url.search + url.hash;
}

/**
 * A URL the server told us to open (the IdP of saml-init, a moved account's new server):
 * a same-site path, or an absolute http(s) URL without credentials. Else undefined.
 */
export function serverRedirectUrl(raw: unknown, origin: string): string | undefined {
  if (typeof raw !== 'string' || raw.length > 4096 || CONTROL_OR_BACKSLASH.test(raw)) return undefined;
  if (raw.startsWith('/')) return sameSitePath(raw, origin) !== undefined ? raw : undefined;
  try {
    const url = new URL(raw);
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password) return undefined;
    return url.href;
  } catch {
    return undefined;
  }
}
