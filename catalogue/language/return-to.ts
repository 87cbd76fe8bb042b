/**
 * Where a browser may be sent (SPEC §2), one rule for the app and the server: return_to /
 * redirect_uri come from the query string and are attacker-controlled, so only same-site targets
 * survive; anything doubtful is undefined and the caller falls back to its default. The app's
 * after-sign-in targets on other hosts (help centre, academy) build on this (src/app/return-to.ts).
 */
export const CONTROL_OR_BACKSLASH = /[\u0000-\u001f\u007f\\]/;

/** The longest return target we keep: a longer one is not a page of ours. */
const MAX_LENGTH = 2048;

/**
 * Stands in for the site's origin where only a path may be given: the server keeps a return_to
 * (through MFA, a plain form's sign-in) without knowing which of the site's addresses the browser uses.
 */
const PATH_ONLY = 'http://same.invalid';

/**
 * The raw return target of a screen's query string (SPEC §2): return_to, else redirect_uri, as some
 * products name it. The one place these names are read (src/app/vocabulary.json declares them for
 * the catalogue check).
 */
export function returnToIn(query: Readonly<Record<string, string | undefined>>): string | undefined {
  return query.return_to ?? query.redirect_uri;
}

/**
 * A same-site path (with query and hash) for a raw return_to value, or undefined. With `origin`, an
 * absolute URL on that origin counts too; without, only a path does.
 */
export function sameSitePath(raw: unknown, origin = PATH_ONLY): string | undefined {
  if (typeof raw !== 'string') return undefined;
  const value = raw.trim();
  if (value === '' || value.length > MAX_LENGTH || CONTROL_OR_BACKSLASH.test(value)) return undefined;
  let decoded: string;
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
 * A URL the server told the app to open (the IdP of saml-init, a moved account's new server):
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
