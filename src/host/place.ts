/**
 * Where a page is and whose browser shows it: the window's origin, host name, languages and cookies,
 * or, when the build prerenders pages (no window: scripts/prerender.ts), the stand-in it sets (it
 * varies them to find what a page depends on).
 */
export interface Place {
  origin: string;
  hostname: string;
  languages: readonly string[];
  /** document.cookie's form: 'name=value; other=value'. */
  cookie: string;
}

let prerenderPlace: Place = { origin: 'http://prerender.invalid', hostname: 'prerender.invalid', languages: [], cookie: '' };

/** The place the build's prerendering renders for. */
export function setPrerenderPlace(place: Place): void {
  prerenderPlace = place;
}

export function place(): Place {
  if (typeof window === 'undefined') return prerenderPlace;
  return {
    origin: window.location.origin,
    hostname: window.location.hostname,
    languages: navigator.languages?.length ? navigator.languages : [navigator.language],
    cookie: document.cookie,
  };
}
