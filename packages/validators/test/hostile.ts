/** Hostile inputs (50,000 characters in the test; 10k/50k/100k in the benchmark). */
export const HOSTILE_LENGTH = 50_000;

/** Inputs built to make a careless parser backtrack or allocate, each about `length` characters. */
export function makeHostileInputs(length: number): Record<string, string> {
  const fill = (unit: string, tail = '!') => unit.repeat(Math.ceil((length - tail.length) / unit.length)).slice(0, length - tail.length) + tail;
  return {
    letters: fill('a'),
    digits: fill('1'),
    dottedDigits: fill('1.'),
    dottedLabels: fill('a.'),
    hyphenLabels: fill('a-'),
    colons: fill(':'),
    hexGroups: fill('ffff:'),
    doubleColons: fill('1::'),
    atSigns: fill('a@'),
    emailish: fill('a.b') + '@example.com',
    punycode: 'xn--' + fill('a9'),
    percent: 'http://example.com/' + fill('%4'),
    urlPath: 'https://example.com/' + fill('a/'),
    urlUserinfo: 'http://' + fill('a:') + '@x',
    urlHost: 'http://' + fill('a.'),
    urlPort: 'http://a:' + fill('9'),
    backslashes: fill('\\'),
    uncDeep: '\\\\server\\share\\' + fill('d\\'),
    windowsDeep: 'C:\\' + fill('d\\'),
    slashes: fill('/'),
    macDeep: '/' + fill('d/'),
    stars: fill('*'),
    oidArcs: fill('.1'),
    fraction: fill('1') + '/',
    ranges: fill('1.1.1.1-'),
    cidrs: fill('1.1.1.1/'),
    spaces: fill(' '),
    unicode: fill('\u00e9\u200c'),
  };
}

export const hostileInputs = makeHostileInputs(HOSTILE_LENGTH);
