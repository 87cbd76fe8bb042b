/**
 * The peer suite (see peer-suite.ts): every counted validator.js / ajv-formats
 * case must agree with the plugin, except the named EXCEPTIONS (in
 * peer-suite.ts), which the test asserts the other way round so none can
 * hide or go stale.
 */
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
