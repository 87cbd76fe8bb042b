/**
 * Catalogue routes, in react-router's syntax (':param', optional ':param?' and 'segment?'), matched as
 * react-router matches them (its compilePath, matchPath and generatePath, MIT licence, reduced to
 * what routes use; tests/catalogue/routes.test.ts compares them with react-router's own): the app's
 * router, the first screen's preload (src/main.tsx), the server's pages (server/spa/build.ts), the
 * catalogue check and the studio all ask here which route a path reaches. Written out here so the
 * browser's first load does not carry react-router for it.
 */

/** A '{name}' placeholder of a navigate target ("/activate/{code}") stands for a parameter's value. */
const PLACEHOLDER = /\{[^}/]+\}/g;

interface Compiled {
  matcher: RegExp;
  params: Array<{ name: string; optional: boolean }>;
}

const compiled = new Map<string, Compiled>();

function compile(pattern: string, caseSensitive: boolean): Compiled {
  const cacheKey = `${caseSensitive ? 'c' : 'i'}${pattern}`;
  const known = compiled.get(cacheKey);
  if (known) return known;
  const params: Compiled['params'] = [];
  let source =
    '^' +
    pattern
      .replace(/\/*\*?$/, '')
      .replace(/^\/*/, '/')
      .replace(/[\\.*+^${}|()[\]]/g, '\\$&')
      .replace(/\/:([\w-]+)(\?)?/g, (whole: string, name: string, optional: string | undefined, index: number, all: string) => {
        params.push({ name, optional: optional !== undefined });
        if (!optional) return '/([^\\/]+)';
        const next = all.charAt(index + whole.length);
        return next && next !== '/' ? '/([^\\/]*)' : '(?:/([^\\/]*))?';
      })
      .replace(/\/([\w-]+)\?(\/|$)/g, '(/$1)?$2');
  if (pattern.endsWith('*')) {
    params.push({ name: '*', optional: false });
    source += pattern === '*' || pattern === '/*' ? '(.*)$' : '(?:\\/(.+)|\\/*)$';
  } else source += '\\/*$';
  const result = { matcher: new RegExp(source, caseSensitive ? undefined : 'i'), params };
  compiled.set(cacheKey, result);
  return result;
}

/** A path's segments decoded, a '/' inside a segment kept as %2F (as the router reads the address bar). */
function decodePath(path: string): string {
  try {
    return path
      .split('/')
      .map((segment) => decodeURIComponent(segment).replace(/\//g, '%2F'))
      .join('/');
  } catch {
    return path;
  }
}

/**
 * The route parameters of a path the pattern matches (as the app's router hands them to a screen),
 * else undefined. `pathname` as the address bar has it (percent-encoded); parameters come decoded.
 */
export function matchRoute(pattern: string, pathname: string, options: { caseSensitive?: boolean } = {}): Record<string, string | undefined> | undefined {
  const { matcher, params } = compile(pattern, options.caseSensitive ?? false);
  const match = decodePath(pathname || '/').match(matcher);
  if (!match) return undefined;
  const out: Record<string, string | undefined> = {};
  params.forEach(({ name, optional }, index) => {
    const value = match[index + 1];
    out[name] = optional && !value ? undefined : (value ?? '').replace(/%2F/g, '/');
  });
  return out;
}

/**
 * Whether a path (query and hash ignored; '{name}' placeholders allowed) falls under a route pattern.
 * Like the router, case-insensitively; the catalogue check asks case-sensitively, since a link that
 * reaches its route only because the router forgives the case is still a slip.
 */
export function routeMatches(pattern: string, target: string, options: { caseSensitive?: boolean } = {}): boolean {
  const path = (target.split(/[?#]/)[0] ?? '').replace(PLACEHOLDER, '_');
  return compile(pattern, options.caseSensitive ?? false).matcher.test(path || '/');
}

/** The route parameters a pattern names (':code' and ':code?'). */
export function routeParams(pattern: string): string[] {
  return [...pattern.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1] ?? '');
}

/**
 * A path the pattern matches, each parameter filled by `value(name)`; optional segments left out, or
 * with `optional`, the optional parameters filled too.
 */
export function samplePath(pattern: string, value: (name: string) => string, options: { optional?: boolean } = {}): string {
  const segments = pattern
    .split('/')
    .filter((segment) => options.optional === true || !segment.endsWith('?'))
    .filter((segment) => segment !== '')
    .map((segment) => {
      const param = /^:([\w-]+)\??$/.exec(segment) ?? /^:([\w-]+)(.*)$/.exec(segment);
      if (!param) return segment.replace(/\?$/, '');
      return encodeURIComponent(value(param[1] ?? '')) + (segment.endsWith('?') ? '' : (param[2] ?? ''));
    });
  return `/${segments.join('/')}`;
}

/** The values of a route's optional parameters a path gives (none when it leaves them out or does not match). */
export function optionalParamsGiven(pattern: string, pathname: string): string[] {
  const optional = [...pattern.matchAll(/:([A-Za-z0-9_]+)\?/g)].map((m) => m[1] ?? '');
  const params = matchRoute(pattern, pathname) ?? {};
  return optional.filter((name) => params[name] !== undefined && params[name] !== '');
}
