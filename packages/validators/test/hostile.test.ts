/**
 * Linear time: every format and length-based keyword gets 50,000-character
 * hostile strings. The bound (200 ms per input) is loose on purpose, for a
 * slow 2-core CI; catastrophic backtracking would take seconds or hours.
 */
import { describe, expect, it } from 'vitest';
import Ajv from 'ajv';
import addValidators, { formats, formatNames } from '../src/index.js';
import { hostileInputs, HOSTILE_LENGTH } from './hostile.js';

const LIMIT_MS = 200;

function time(fn: () => unknown): number {
  const t0 = performance.now();
  fn();
  return performance.now() - t0;
}

describe('hostile inputs', () => {
  it('are 50,000 characters long', () => {
    for (const [name, s] of Object.entries(hostileInputs)) expect(s.length, name).toBeGreaterThanOrEqual(HOSTILE_LENGTH);
  });
  for (const f of formatNames) {
    it(`${f} stays under ${LIMIT_MS} ms per input`, () => {
      for (const [name, s] of Object.entries(hostileInputs)) {
        const ms = time(() => formats[f](s));
        expect(ms, `${f} on ${name}: ${ms.toFixed(1)} ms`).toBeLessThan(LIMIT_MS);
      }
    });
  }
  it('keywords stay under the bound too', () => {
    const ajv = addValidators(new Ajv({ allErrors: true }));
    const v = ajv.compile({
      type: 'object',
      properties: {
        a: { type: 'string', notBlank: true, passwordPolicy: true, limit: 'organization' },
        b: { type: 'string', integerRange: [0, 10] },
        c: { type: 'string', sameAs: 'a' },
      },
    });
    for (const [name, s] of Object.entries(hostileInputs)) {
      const ms = time(() => v({ a: s, b: s, c: s + 'x' }));
      expect(ms, `keywords on ${name}: ${ms.toFixed(1)} ms`).toBeLessThan(LIMIT_MS);
    }
  });
});
