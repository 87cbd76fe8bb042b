/**
 * npm run bench:validators — throughput of each frontdoor/validators format
 * against a reference implementation on the same corpus: ajv-formats where
 * it has the format (full mode), otherwise validator.js, otherwise none.
 * Corpus per format: its documented valid/invalid examples, the
 * JSON-Schema-Test-Suite strings where the suite has the format, and a few
 * generic strings. A second table times the 50,000-character hostile inputs.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { fullFormats } from "ajv-formats/dist/formats.js";
import validator from "validator";
import { formats, formatNames, type FormatName } from "../src/validators/formats.js";
import { examples } from "../tests/validators/examples.js";
import { hostileInputs } from "../tests/validators/hostile.js";

type Check = (s: string) => boolean;
const fmt = (f: unknown): Check =>
  typeof f === "function" ? (f as Check) : f instanceof RegExp ? (s) => f.test(s) : (s) => (f as { validate: Check }).validate(s);

const references: Partial<Record<FormatName, [string, Check]>> = {
  ipv4: ["ajv-formats ipv4", fmt(fullFormats.ipv4)],
  ipv6: ["ajv-formats ipv6", fmt(fullFormats.ipv6)],
  ip: ["validator isIP", (s) => validator.isIP(s)],
  cidr: ["validator isIPRange", (s) => validator.isIPRange(s)],
  url: ["ajv-formats uri", fmt(fullFormats.uri)],
  "secure-url": ["validator isURL https", (s) => validator.isURL(s, { protocols: ["https"], require_protocol: true })],
  hostname: ["ajv-formats hostname", fmt(fullFormats.hostname)],
  "dns-name": ["validator isFQDN", (s) => validator.isFQDN(s, { allow_underscores: true, allow_wildcard: true, allow_trailing_dot: true })],
  email: ["ajv-formats email", fmt(fullFormats.email)],
  alphanumeric: ["validator isAlphanumeric", (s) => validator.isAlphanumeric(s)],
  key32: ["validator isAlphanumeric+isLength", (s) => validator.isAlphanumeric(s) && validator.isLength(s, { min: 32, max: 32 })],
  "decimal-or-fraction": ["validator isDecimal", (s) => validator.isDecimal(s)],
  "mfa-code": ["validator isNumeric+isLength", (s) => validator.isNumeric(s, { no_symbols: true }) && validator.isLength(s, { min: 6, max: 6 })],
};

const suiteFile: Partial<Record<FormatName, string>> = { ipv4: "ipv4", ipv6: "ipv6", hostname: "hostname", email: "email", url: "uri" };
const suiteDir = fileURLToPath(new URL("../../shared/conformance/json-schema-test-suite/", import.meta.url));
const generic = ["", "a", "example.com", "10.0.0.1", "::1", "https://example.com/x", "joe@example.com", "C:\\x", "/x", "*.log", ".1.3", "1/2"];

function corpus(f: FormatName): string[] {
  const out = [...examples[f].valid, ...examples[f].invalid, ...generic];
  const file = suiteFile[f];
  if (file) {
    for (const g of JSON.parse(readFileSync(`${suiteDir}${file}.json`, "utf8")) as { tests: { data: unknown }[] }[]) {
      for (const t of g.tests) if (typeof t.data === "string") out.push(t.data);
    }
  }
  return out;
}

/** Strings checked per second, measured for at least `ms`. */
function throughput(check: Check, inputs: string[], ms = 150): number {
  let sink = 0;
  for (let i = 0; i < 200; i++) for (const s of inputs) sink += check(s) ? 1 : 0; // warm-up
  let n = 0;
  const t0 = performance.now();
  let t = t0;
  while (t - t0 < ms) {
    for (let i = 0; i < 50; i++) for (const s of inputs) sink += check(s) ? 1 : 0;
    n += 50 * inputs.length;
    t = performance.now();
  }
  if (sink < 0) console.log(sink);
  return (n / (t - t0)) * 1000;
}

function maxMs(check: Check, inputs: string[]): number {
  let worst = 0;
  for (const s of inputs) {
    const t0 = performance.now();
    try {
      check(s);
    } catch {
      /* a reference may throw on odd input */
    }
    worst = Math.max(worst, performance.now() - t0);
  }
  return worst;
}

const k = (n: number) => (n >= 1e6 ? `${(n / 1e6).toFixed(2)} M/s` : `${(n / 1e3).toFixed(0)} k/s`);
const rows: string[][] = [["format", "corpus", "frontdoor", "reference", "ref impl", "ratio (ours/ref)"]];
const hostileRows: string[][] = [["format", "frontdoor worst ms", "reference worst ms"]];
const hostile = Object.values(hostileInputs);

for (const f of formatNames) {
  const inputs = corpus(f);
  const ours = throughput(formats[f], inputs);
  const ref = references[f];
  const theirs = ref ? throughput(ref[1], inputs) : NaN;
  rows.push([f, String(inputs.length), k(ours), ref ? k(theirs) : "—", ref ? ref[0] : "(none)", ref ? `${(ours / theirs).toFixed(2)}×` : "—"]);
  hostileRows.push([f, maxMs(formats[f], hostile).toFixed(2), ref ? maxMs(ref[1], hostile).toFixed(2) : "—"]);
}

function table(r: string[][]): string {
  const widths = r[0]!.map((_, i) => Math.max(...r.map((row) => row[i]!.length)));
  const line = (row: string[]) => `| ${row.map((c, i) => c.padEnd(widths[i]!)).join(" | ")} |`;
  return [line(r[0]!), `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`, ...r.slice(1).map(line)].join("\n");
}

console.log(`Throughput (strings checked per second; ratio > 1 means frontdoor is faster), node ${process.version}\n`);
console.log(table(rows));
console.log(`\nHostile inputs: ${hostile.length} strings of 50,000 characters, worst time per string\n`);
console.log(table(hostileRows));
