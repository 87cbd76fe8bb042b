import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { isValidALabel, punycodeDecode } from '../src/formats/idna.js';

const ref = JSON.parse(readFileSync(new URL('./fixtures/idna-reference.json', import.meta.url), 'utf8')) as {
  cases: [string, boolean][];
};

describe('IDNA A-labels', () => {
  it('decodes Punycode (RFC 3492 sample)', () => {
    expect(String.fromCodePoint(...punycodeDecode('bcher-kva')!)).toBe('bücher');
    expect(punycodeDecode('X')).toBeNull();
    expect(punycodeDecode('99999999999')).toBeNull();
  });
  it(`agrees with the Python idna package on ${ref.cases.length} labels`, () => {
    const wrong = ref.cases.filter(([a, valid]) => isValidALabel(a) !== valid);
    expect(wrong).toEqual([]);
  });
});
