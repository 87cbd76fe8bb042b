/**
 * The peer suite (see peer-suite.ts): every counted validator.js / ajv-formats
 * case must agree with the plugin, except the named EXCEPTIONS (in
 * peer-suite.ts), which the test asserts the other way round so none can
 * hide or go stale.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import Ajv from 'ajv';
import addValidators, { parseUri } from '../src/index.js';
import { caseId, classify, EXCEPTIONS, loadPeerData, type Counted } from './peer-suite.js';

const data = loadPeerData();
const { counted, excluded } = classify(data);

const ajv = addValidators(new Ajv({ allErrors: true }));
const verdict = (k: Counted) => ajv.validate(k.schema, k.case.input) === true;

describe('peer suite (validator.js and ajv-formats cases)', () => {
  const results = counted.map((k) => ({ k, id: caseId(k), ours: verdict(k) }));
  const disagreements = results.filter((r) => r.ours !== r.k.case.expected);

  it(`agrees on every counted case but the ${Object.keys(EXCEPTIONS).length} named exceptions`, () => {
    const unexpected = disagreements.filter((r) => !EXCEPTIONS[r.id]).map((r) => `${r.id} peer: ${r.k.case.expected} — ${r.k.case.from}`);
    expect(unexpected).toEqual([]);
    expect(Object.keys(EXCEPTIONS).length).toBeLessThanOrEqual(8);
  });

  for (const [id, reason] of Object.entries(EXCEPTIONS)) {
    it(`EXCEPTION ${id} — ${reason}`, () => {
      const hits = results.filter((r) => r.id === id);
      expect(hits.length, 'the exception names a counted case').toBe(1);
      expect(hits[0]!.ours).toBe(!hits[0]!.k.case.expected);
    });
  }

  it('counts a thousand cases and more over every target', () => {
    expect(counted.length).toBeGreaterThan(1000);
    const targets = new Set(counted.map((k) => k.target));
    for (const t of [
      'url',
      'secure-url',
      'uri',
      'hostname',
      'dns-name',
      'email',
      'ip',
      'ipv4',
      'ipv6',
      'cidr',
      'alphanumeric',
      'decimal-or-fraction',
      'integerRange',
    ]) {
      expect(targets.has(t), t).toBe(true);
    }
  });

  it('accepts no script or data scheme as url or secure-url, counted or excluded', () => {
    const all = data.cases.filter((c) => /^\s*(javascript|vbscript|data|file):/i.test(c.input));
    expect(all.length).toBeGreaterThan(5);
    const ajv = addValidators(new Ajv());
    for (const c of all) {
      expect(ajv.validate({ type: 'string', format: 'url' }, c.input), c.input).toBe(false);
      expect(ajv.validate({ type: 'string', format: 'secure-url' }, c.input), c.input).toBe(false);
      // ...while `uri`, the syntax, knows them for what they are
      if (parseUri(c.input)) expect(parseUri(c.input)!.scheme).toMatch(/^(javascript|vbscript|data|file)$/);
    }
  });

  it('excludes only with a named option or rule', () => {
    for (const [target, reasons] of excluded) {
      for (const reason of reasons.keys()) expect(reason, target).toMatch(/^(peer option|documented:|peer policy)/);
    }
  });
});

describe('npm run peer', () => {
  it('prints the report and ends with the counts (the script names a file that exists)', () => {
    const pkgDir = fileURLToPath(new URL('..', import.meta.url));
    const script = (JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts.peer!;
    const [runner, file] = script.split(' ');
    expect(runner).toBe('tsx');
    expect(existsSync(join(pkgDir, file!)), file).toBe(true);
    const tsx = createRequire(join(pkgDir, 'package.json')).resolve('tsx/cli');
    const out = execFileSync(process.execPath, [tsx, file!], { cwd: pkgDir, encoding: 'utf8', timeout: 60_000 });
    expect(out).toMatch(/^peer suite: validator\.js [0-9a-f]{12}/);
    expect(out).toMatch(new RegExp(`\\n${counted.length - Object.keys(EXCEPTIONS).length} passed, ${Object.keys(EXCEPTIONS).length} failed\\n$`));
  }, 90_000);
});
