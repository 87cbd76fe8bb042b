import { generatePath, matchPath } from 'react-router';

/**
 * Catalogue routes, in react-router's syntax (':param', optional ':param?' and 'segment?'), matched by
 * react-router itself: the app's router, the first screen's preload (src/main.tsx), the server's static
 * page (server/spa.ts), the catalogue check and the studio all ask here which route a path reaches.
 */

/** A '{name}' placeholder of a navigate target ("/activate/{code}") stands for a parameter's value. */
const PLACEHOLDER = /\{[^}/]+\}/g;

/**
 * Whether a path (query and hash ignored; '{name}' placeholders allowed) falls under a route pattern.
 * Like the router, case-insensitively; the catalogue check asks case-sensitively, since a link that
 * reaches its route only because the router forgives the case is still a slip.
 */
export function routeMatches(pattern: string, target: string, options: { caseSensitive?: boolean } = {}): boolean {
  const path = (target.split(/[?#]/)[0] ?? '').replace(PLACEHOLDER, '_');
  return matchPath({ path: pattern, caseSensitive: options.caseSensitive ?? false, end: true }, path || '/') !== null;
}

/** The route parameters a pattern names (':code' and ':code?'). */
export function routeParams(pattern: string): string[] {
  return [...pattern.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1] ?? '');
}

/** A path the pattern matches, each parameter filled by `value(name)` and optional segments left out. */
export function samplePath(pattern: string, value: (name: string) => string): string {
  const required = pattern
    .split('/')
    .filter((segment) => !segment.endsWith('?'))
    .join('/');
  return generatePath(required || '/', Object.fromEntries(routeParams(required).map((name) => [name, value(name)])));
}
