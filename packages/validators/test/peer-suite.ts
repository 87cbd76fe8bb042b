/**
 * The peer suite: validator.js's own test cases (isURL, isIP, isIPRange,
 * isFQDN, isEmail, isAlphanumeric, isDecimal, isInt, isLength) and
 * ajv-formats' format tests (with the JSON-Schema-Test-Suite cases it pins),
 * from fixtures/peer/peer-cases.json (licences beside it). This is the
 * classification of the peer runner those cases came with (run.mjs), with
 * the mapping brought up to date for this package:
 *
 *  - the suite's and ajv-formats' `uri` cases run against our `uri` (the
 *    runner predates it and used `url`);
 *  - `url` has a scheme allow-list and holds hosts to the hostname rules, so
 *    the peer options that state its semantics are now protocols [http,
 *    https, ftp] with require_valid_protocol, no underscores and no trailing
 *    dot: a case asserted valid only because the peer set one of those
 *    options otherwise is excluded naming the option, as the extractor
 *    does with `flippedBy` (whose `url` entries assumed "any scheme");
 *  - the runner's rule "ours accepts any scheme" is gone.
 *
 * A case whose peer verdict flips under the peer options that state our
 * semantics (`flippedBy`, computed by the extractor) is excluded naming the
 * option; a documented scope rule excludes a case only in the direction it
 * decides. Everything else counts. peer.test.ts requires every counted case
 * to agree except the named EXCEPTIONS below; `npm run peer` prints the report.
 */
import { readFileSync } from 'node:fs';
import { DEFAULT_URL_SCHEMES } from '../src/formats.js';

export interface PeerCase {
  target: string;
  input: string;
  expected: boolean;
  from: string;
  schema?: Record<string, unknown>;
  peerOptions?: Record<string, unknown>;
  flippedBy?: string[];
  ajvFormatsGroup?: string;
  suiteFormat?: string;
}

export interface PeerData {
  validatorjs: { commit: string; files: string[] };
  ajvFormats: { commit: string };
  suite?: { commit: string };
  mapping: Record<string, unknown>;
  setSkips: { where: string; reason: string; count: number }[];
  cases: PeerCase[];
}

export function loadPeerData(): PeerData {
  return JSON.parse(readFileSync(new URL('./fixtures/peer/peer-cases.json', import.meta.url), 'utf8')) as PeerData;
}

/** A counted case: what to compile and what the peer asserts. */
export interface Counted {
  case: PeerCase;
  /** our target after mapping (e.g. "uri" for the suite's uri cases) */
  target: string;
  schema: Record<string, unknown>;
}

export interface Classified {
  counted: Counted[];
  /** target → reason → cases */
  excluded: Map<string, Map<string, PeerCase[]>>;
  duplicates: number;
  /** same input, opposite verdicts in two peer sets (not counted) */
  conflicts: PeerCase[];
}

const nonAscii = (s: string) => /[^\x00-\x7f]/.test(s);
const domainOf = (s: string) => s.slice(s.lastIndexOf('@') + 1);
const schemeOf = (s: string) => /^([a-z][a-z0-9+.-]*):/i.exec(s)?.[1]?.toLowerCase() ?? null;
const hostOfUrl = (s: string) => /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/?#]*@)?(\[[^\]]*\]|[^:/?#]*)/i.exec(s)?.[1] ?? null;
function specialIpv4(h: string | null): boolean {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(h ?? '');
  if (!m) return false;
  const [a, b] = [Number(m[1]), Number(m[2])];
  return a === 0 || a === 10 || a === 127 || a >= 224 || (a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168);
}
const fromDperini = (c: PeerCase) => c.ajvFormatsGroup === 'validation of URL strings';
const isUriCase = (c: PeerCase) => c.target === 'url' && (c.suiteFormat === 'uri' || c.ajvFormatsGroup === 'format: uri');
interface Rule {
  targets: string[];
  /** the peer verdict the rule decides (it excludes only cases asserting this) */
  when: boolean;
  test: (c: PeerCase) => boolean;
  reason: string;
}

/** Documented scope rules (README "Peer suite") and peer policies that are not syntax. */
const RULES: Rule[] = [
  {
    targets: ['url', 'secure-url', 'uri'],
    when: true,
    test: (c) => nonAscii(c.input),
    reason: 'documented: url and uri are RFC 3986, ASCII only; an IRI (RFC 3987) must be encoded first (punycode host, %-encoded path)',
  },
  {
    targets: ['hostname', 'dns-name'],
    when: true,
    test: (c) => nonAscii(c.input),
    reason: 'documented: LDH labels (RFC 1123 §2.1, RFC 5890): IDNs as A-labels (xn--), not U-labels',
  },
  {
    targets: ['email'],
    when: true,
    test: (c) => c.input.startsWith('"'),
    reason: 'documented: dot-atom local parts only (quoted local parts rejected on purpose)',
  },
  {
    targets: ['email'],
    when: true,
    test: (c) => nonAscii(domainOf(c.input)),
    reason: 'documented: the domain is an ASCII hostname (IDN as A-labels)',
  },
  {
    targets: ['ip', 'ipv6'],
    when: true,
    test: (c) => c.input.includes('%'),
    reason: 'documented: no zone id (RFC 4007 §11 zone ids are not part of the address; RFC 6874 is URI-only)',
  },
  {
    targets: ['integerRange'],
    when: true,
    test: (c) => c.input.startsWith('+'),
    reason: "documented: strings must be canonical integers (no '+')",
  },
  {
    targets: ['hostname'],
    when: true,
    test: (c) => !!(c.ajvFormatsGroup || c.suiteFormat) && c.input.endsWith('.'),
    reason: 'documented: hostname takes no trailing dot (dns-name does)',
  },
  {
    targets: ['dns-name'],
    when: false,
    test: (c) => !!(c.ajvFormatsGroup || c.suiteFormat) && /^[A-Za-z0-9_.-]+$/.test(c.input) && c.input.includes('_') && !/(^|\.)-|-(\.|$)|\.\./.test(c.input),
    reason: "documented: dns-name admits '_' in labels (_sip._tcp, _dmarc); the peer's case is a hostname (RFC 1123) case",
  },
  {
    targets: ['email'],
    when: true,
    test: (c) => domainOf(c.input).startsWith('['),
    reason: 'documented: no address literals (an account email needs a domain name)',
  },
  {
    targets: ['url'],
    when: false,
    test: (c) => fromDperini(c) && specialIpv4(hostOfUrl(c.input)),
    reason: "peer policy (ajv-formats 'url' = dperini's web-URL regex): private/reserved/multicast networks rejected; not URL syntax",
  },
  {
    targets: ['url'],
    when: true,
    test: (c) => !DEFAULT_URL_SCHEMES.includes(schemeOf(c.input) ?? ''),
    reason: 'peer option protocols / require_valid_protocol: a scheme outside ours (http, https, ftp; javascript, vbscript, data and file never)',
  },
  {
    targets: ['url'],
    when: true,
    test: (c) => c.peerOptions?.allow_underscores === true && (hostOfUrl(c.input) ?? '').includes('_'),
    reason: "peer option allow_underscores: url hosts are host names (RFC 1123: no '_')",
  },
  {
    targets: ['url'],
    when: true,
    test: (c) => c.peerOptions?.allow_trailing_dot === true && (hostOfUrl(c.input) ?? '').endsWith('.'),
    reason: 'peer option allow_trailing_dot: url hosts are host names (no trailing dot)',
  },
];

/**
 * A non-ASCII input is invalid for our url/uri/hostname/dns-name/email whatever the
 * peer's options, so a case the option analysis would exclude still counts when the
 * peer asserts it invalid (e.g. isFQDN() rejects "domain.co\u2002m" for require_tld).
 */
const keep = (c: PeerCase, target: string) =>
  !c.expected && ['url', 'secure-url', 'uri', 'hostname', 'dns-name', 'email'].includes(target) && nonAscii(c.input);

export function classify(data: PeerData): Classified {
  const out: Classified = { counted: [], excluded: new Map(), duplicates: 0, conflicts: [] };
  const seen = new Map<string, boolean>();
  const exclude = (target: string, c: PeerCase, reason: string) => {
    const byReason = out.excluded.get(target) ?? new Map<string, PeerCase[]>();
    out.excluded.set(target, byReason);
    byReason.set(reason, [...(byReason.get(reason) ?? []), c]);
  };
  for (const c of data.cases) {
    const target = isUriCase(c) ? 'uri' : c.target;
    if (!keep(c, target) && c.flippedBy && c.flippedBy.length > 0) {
      const names = c.flippedBy
        .map((f) =>
          f
            .split(' + ')
            .map((p) => p.split(':')[0])
            .join(' + '),
        )
        .join(' | ');
      exclude(target, c, `peer option ${names} (the peer's verdict flips under ours)`);
      continue;
    }
    const rule = RULES.find((r) => r.targets.includes(target) && r.when === c.expected && r.test(c));
    if (rule) {
      exclude(target, c, rule.reason);
      continue;
    }
    const schema = c.schema ?? { type: 'string', format: target };
    const key = `${target}\u0000${JSON.stringify(schema)}\u0000${c.input}`;
    if (seen.has(key)) {
      out.duplicates++;
      if (seen.get(key) !== c.expected) out.conflicts.push(c);
      continue;
    }
    seen.set(key, c.expected);
    out.counted.push({ case: c, target, schema });
  }
  return out;
}

/** A counted case's identity in the EXCEPTIONS list: "[target] input". */
export const caseId = (k: Counted) => `[${k.target}${k.case.schema ? ` ${JSON.stringify(k.case.schema)}` : ''}] ${JSON.stringify(k.case.input)}`;

const LENGTH_REASON =
  "ajv's own minLength/maxLength count Unicode code points, as JSON Schema defines string length; validator.js's isLength does not count variation selectors (U+FE0E/U+FE0F) and counts some emoji sequences as one. Not the plugin's code.";

/** "[target] input" → why the plugin deliberately differs from the peer. At most 8. */
export const EXCEPTIONS: Record<string, string> = {
  '[url] "http://www.foobar.com:0/"':
    'Port 0 is a valid port number (RFC 3986 port = *DIGIT, WHATWG URL accepts 0–65535); validator.js rejects it as unusable. The product rule is 0–65535.',
  '[url] "http://a.b--c.de/"':
    "Consecutive hyphens inside a label are valid host names (RFC 1123; RFC 5891 reserves only positions 3–4); dperini's regex (ajv-formats 'url') allows single hyphens only.",
  '[url] "http://lol:lol:lol@foobar.com/"':
    "RFC 3986 userinfo may hold any number of ':' (WHATWG URL takes the first as the separator), and ajv-formats' own case 'http://-.~_!$&'()*+,;=:%40:80%2f::::::@example.com' is valid; validator.js allows one.",
  '[minLength/maxLength {"type":"string","maxLength":4}] "test\uFE0F"': LENGTH_REASON,
  '[minLength/maxLength {"type":"string","minLength":5,"maxLength":5}] "test\uFE0F\uFE0F"': LENGTH_REASON,
  '[minLength/maxLength {"type":"string","minLength":9,"maxLength":9}] "test\uFE0F\uFE0F\uFE0F\uFE0F\uFE0F\uFE0F"': LENGTH_REASON,
  '[minLength/maxLength {"type":"string","maxLength":8}] "\u{1F469}\u{1F9B0}\u{1F469}\u{1F469}\u{1F466}\u{1F466}\u{1F3F3}\uFE0F\u{1F308}"': LENGTH_REASON,
  '[minLength/maxLength {"type":"string","maxLength":8}] "\u23E9\uFE0E\u23E9\uFE0E\u23EA\uFE0E\u23EA\uFE0E\u23ED\uFE0E\u23ED\uFE0E\u23EE\uFE0E\u23EE\uFE0E"':
    LENGTH_REASON,
};
