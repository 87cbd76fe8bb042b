import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { generatePath, matchPath, matchRoutes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { matchRoute, optionalParamsGiven, routeMatches, samplePath } from '../../catalogue/language/routes';

/**
 * The catalogue's route matching (catalogue/language/routes.ts, what the app's router, the server and
 * the check use) decides as react-router does, for every route of the catalogue and for the shapes
 * react-router's syntax has (optional parameters and segments, splats), on paths that should and
 * should not match: trailing slashes, case, encoded characters, extra segments.
 */
const catalogue = (JSON.parse(readFileSync(join(__dirname, '../../src/generated/routes.json'), 'utf8')) as Array<{ path: string }>).map((r) => r.path);
const PATTERNS = [...new Set([...catalogue, '/', '/a/:b?/c', '/lang?/about', '/files/*', '*', '/x/:y-z', '/opt/:code?'])];
const PATHS = [
  '/',
  '/login',
  '/LOGIN',
  '/login/',
  '//login',
  '/login/extra',
  '/mlogin',
  '/register',
  '/register/DEMO-TRIAL',
  '/register/DEMO%20TRIAL',
  '/register/a%2Fb',
  '/register/%E2%9C%93',
  '/register/bad%ZZ',
  '/resetPassword',
  '/resetPassword/',
  '/resetPassword/abc',
  '/resetPassword/abc/def',
  '/activate/user/CODE',
  '/activate/user/',
  '/activate/division/KEY',
  '/app',
  '/app/',
  '/eus/',
  '/mfa/setup',
  '/mfa/setup/',
  '/a/c',
  '/a/1/c',
  '/about',
  '/lang/about',
  '/files',
  '/files/a/b',
  '/x/1',
  '/opt',
  '/opt/',
  '/opt/9',
  '/no/such/page',
];

describe('route matching against react-router', () => {
  for (const pattern of PATTERNS) {
    it(pattern, () => {
      for (const path of PATHS) {
        expect(routeMatches(pattern, path), `${pattern} ~ ${path}`).toBe(matchPath({ path: pattern, caseSensitive: false, end: true }, path) !== null);
        expect(routeMatches(pattern, path, { caseSensitive: true }), `${pattern} ~ ${path} (case)`).toBe(
          matchPath({ path: pattern, caseSensitive: true, end: true }, path) !== null,
        );
        // The router's view: the decoded parameters of the route it picks.
        const routed = matchRoutes([{ path: pattern }], path)?.[0]?.params;
        expect(matchRoute(pattern, path), `${pattern} params of ${path}`).toEqual(routed === undefined ? undefined : { ...routed });
      }
    });
  }

  it('fills a sample path as generatePath does, optional parts left out', () => {
    for (const pattern of catalogue) {
      const required = pattern
        .split('/')
        .filter((segment) => !segment.endsWith('?'))
        .join('/');
      const value = (name: string) => `v ${name}/x`;
      const params = Object.fromEntries([...required.matchAll(/:([\w-]+)/g)].map((m) => [m[1], value(m[1] ?? '')]));
      expect(samplePath(pattern, value), pattern).toBe(generatePath(required || '/', params));
      expect(routeMatches(pattern, samplePath(pattern, value)), pattern).toBe(true);
    }
  });

  it('fills optional parameters too when asked, and tells which a path gives', () => {
    const value = (name: string) => `v-${name}`;
    expect(samplePath('/resetPassword/:verificationCode?', value, { optional: true })).toBe('/resetPassword/v-verificationCode');
    expect(samplePath('/a/:b/c?/:d?', value, { optional: true })).toBe('/a/v-b/c/v-d');
    for (const pattern of catalogue) expect(routeMatches(pattern, samplePath(pattern, value, { optional: true })), pattern).toBe(true);
    expect(optionalParamsGiven('/resetPassword/:verificationCode?', '/resetPassword/CODE')).toEqual(['verificationCode']);
    expect(optionalParamsGiven('/resetPassword/:verificationCode?', '/resetPassword')).toEqual([]);
    expect(optionalParamsGiven('/resetPassword/:verificationCode?', '/resetPassword/')).toEqual([]);
    expect(optionalParamsGiven('/register/:code', '/register/x')).toEqual([]);
  });
});
