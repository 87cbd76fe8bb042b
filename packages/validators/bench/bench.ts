/**
 * `npm run bench` (from the repository root: `npm run bench:validators`): every format against
 * validator.js, the peer most teams would otherwise use.
 *
 * 1. Throughput on the peer corpus: the inputs of the peer suite's cases for the format
 *    (test/fixtures/peer), else the format's examples (test/examples.ts), plus the
 *    JSON-Schema-Test-Suite strings where the suite has the format.
 * 2. Worst time over the hostile inputs (test/hostile.ts) at 10,000, 50,000 and 100,000 characters.
 *
 * A ratio above 1 means this package is faster. Formats validator.js has no counterpart for show "—".
 */
import { readFileSync } from 'node:fs';
import validator from 'validator';
import { formats, formatNames, type FormatName } from '../src/formats.js';
import { examples } from '../test/examples.js';
import { makeHostileInputs } from '../test/hostile.js';
import { loadPeerData } from '../test/peer-suite.js';

type Check = (s: string) => boolean;

const urlOptions = { protocols: ['http', 'https', 'ftp'], require_protocol: true, require_valid_protocol: true, require_tld: false };
const references: Partial<Record<FormatName, [string, Check]>> = {
  ipv4: ['isIP(s, 4)', (s) => validator.isIP(s, 4)],
  ipv6: ['isIP(s, 6)', (s) => validator.isIP(s, 6)],
  ip: ['isIP(s)', (s) => validator.isIP(s)],
  cidr: ['isIPRange(s)', (s) => validator.isIPRange(s)],
  'ip-range': [
    'isIP(a) && isIP(b), a-b',
    (s) => {
      const dash = s.indexOf('-');
      return dash > 0 && validator.isIP(s.slice(0, dash)) && validator.isIP(s.slice(dash + 1));
    },
  ],
  url: ['isURL(s, http/https/ftp)', (s) => validator.isURL(s, urlOptions)],
  'secure-url': ['isURL(s, https)', (s) => validator.isURL(s, { ...urlOptions, protocols: ['https'] })],
  uri: ['isURL(s, any scheme)', (s) => validator.isURL(s, { require_protocol: true, require_valid_protocol: false, require_tld: false, require_host: false })],
  hostname: ['isFQDN(s, no TLD needed)', (s) => validator.isFQDN(s, { require_tld: false })],
  'dns-name': [
    'isFQDN(s, _ * and trailing dot)',
    (s) => validator.isFQDN(s, { require_tld: false, allow_underscores: true, allow_wildcard: true, allow_trailing_dot: true }),
  ],
  email: ['isEmail(s)', (s) => validator.isEmail(s)],
  alphanumeric: ['isAlphanumeric(s)', (s) => validator.isAlphanumeric(s)],
  'kb-number': ['matches(s, /^(KB)?[1-9]\\d{3,7}$/i)', (s) => validator.matches(s, /^(?:KB)?[1-9][0-9]{3,7}$/i)],
  key32: ['isAlphanumeric && isLength 32', (s) => validator.isAlphanumeric(s) && validator.isLength(s, { min: 32, max: 32 })],
  'decimal-or-fraction': ['isDecimal(s)', (s) => validator.isDecimal(s)],
  'mfa-code': ['isNumeric && isLength 6', (s) => validator.isNumeric(s, { no_symbols: true }) && validator.isLength(s, { min: 6, max: 6 })],
};

// validator.js throws on some inputs (isEmail on a lone surrogate): that counts as "invalid".
for (const [f, ref] of Object.entries(references) as [FormatName, [string, Check]][]) {
  const check = ref[1];
  references[f] = [
    ref[0],
    (s) => {
      try {
        return check(s);
      } catch {
        return false;
      }
    },
  ];
}

const peer = loadPeerData().cases;
const suite = (file: string) =>
  (JSON.parse(readFileSync(new URL(`../test/fixtures/json-schema-test-suite/${file}.json`, import.meta.url), 'utf8')) as { tests: { data: unknown }[] }[])
    .flatMap((g) => g.tests.map((t) => t.data))
    .filter((d): d is string => typeof d === 'string');
const suiteFile: Partial<Record<FormatName, string>> = { ipv4: 'ipv4', ipv6: 'ipv6', hostname: 'hostname', email: 'email', uri: 'uri' };

function corpus(f: FormatName): { inputs: string[]; source: string } {
  const fromPeer = peer
    .filter((c) => (f === 'uri' ? c.suiteFormat === 'uri' || c.ajvFormatsGroup === 'format: uri' : c.target === f && !c.schema))
    .map((c) => c.input);
  const extra = [...examples[f].valid, ...examples[f].invalid, ...(suiteFile[f] ? suite(suiteFile[f]!) : [])];
  return fromPeer.length > 0 ? { inputs: [...new Set([...fromPeer, ...extra])], source: 'peer' } : { inputs: [...new Set(extra)], source: 'examples' };
}

/** Strings checked per second, measured for at least `ms`. */
function throughput(check: Check, inputs: string[], ms = 200): number {
  let sink = 0;
  for (let i = 0; i < 200; i++) for (const s of inputs) sink += check(s) ? 1 : 0; // warm-up
  let n = 0;
  const t0 = performance.now();
  let t = t0;
  while (t - t0 < ms) {
    for (let i = 0; i < 20; i++) for (const s of inputs) sink += check(s) ? 1 : 0;
    n += 20 * inputs.length;
    t = performance.now();
  }
  if (sink < 0) console.log(sink);
  return (n / (t - t0)) * 1000;
}

/** Worst time of one call over `inputs`, in ms (best of 7 rounds per input, to drop GC pauses and timer jitter). */
function worstMs(check: Check, inputs: string[]): number {
  let worst = 0;
  for (const s of inputs) {
    let best = Infinity;
    for (let round = 0; round < 7; round++) {
      const t0 = performance.now();
      try {
        check(s);
      } catch {
        /* a reference may throw on odd input */
      }
      best = Math.min(best, performance.now() - t0);
    }
    worst = Math.max(worst, best);
  }
  return worst;
}

const rate = (n: number) => (n >= 1e6 ? `${(n / 1e6).toFixed(2)} M/s` : `${(n / 1e3).toFixed(0)} k/s`);
const ms = (n: number) => (n < 0.01 ? '<0.01' : n.toFixed(2));
const ratio = (a: number, b: number) => `${(a / b).toFixed(1)}×`;

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  const line = (row: string[]) => `| ${row.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(rows[0]!), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.slice(1).map(line)].join('\n');
}

const LENGTHS = [10_000, 50_000, 100_000];
const hostile = LENGTHS.map((n) => Object.values(makeHostileInputs(n)));

// Warm-up: every check once over the shortest hostile set, so the timings below are of optimized code.
for (const f of formatNames) for (const s of hostile[0]!) [formats[f], references[f]?.[1]].forEach((check) => check?.(s));

const speed: string[][] = [['format', 'corpus', '@frontdoor/validators', 'validator.js', 'ratio', 'validator.js function']];
const safety: string[][] = [['format', ...LENGTHS.map((n) => `${n / 1000}k ours / validator.js (ms)`), 'worst ratio']];
for (const f of formatNames) {
  const { inputs, source } = corpus(f);
  const ref = references[f];
  const ours = throughput(formats[f], inputs);
  const theirs = ref ? throughput(ref[1], inputs) : NaN;
  speed.push([f, `${inputs.length} ${source}`, rate(ours), ref ? rate(theirs) : '—', ref ? ratio(ours, theirs) : '—', ref ? ref[0] : 'no counterpart']);
  const cells: string[] = [];
  let worstRatio = Infinity;
  for (const inputsAt of hostile) {
    const a = worstMs(formats[f], inputsAt);
    const b = ref ? worstMs(ref[1], inputsAt) : NaN;
    cells.push(ref ? `${ms(a)} / ${ms(b)}` : `${ms(a)} / —`);
    // Below 0.01 ms both ways the timer can't tell them apart: no ratio from that length.
    if (ref && Math.max(a, b) >= 0.01) worstRatio = Math.min(worstRatio, b / Math.max(a, 0.001));
  }
  safety.push([f, ...cells, !ref ? '—' : worstRatio === Infinity ? 'both < 0.01 ms' : `${worstRatio.toFixed(1)}×`]);
}

console.log(`@frontdoor/validators vs validator.js ${(validator as { version?: string }).version ?? ''}, node ${process.version}\n`);
console.log('Throughput on the peer corpus (strings per second; ratio > 1: this package is faster)\n');
console.log(table(speed));
console.log(`\nHostile inputs (${hostile[0]!.length} shapes; worst single call; ratio = validator.js time / ours, lowest over the three lengths)\n`);
console.log(table(safety));
