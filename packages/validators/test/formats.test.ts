import { describe, expect, it } from 'vitest';
import { formats, formatNames } from '../src/formats.js';
import { examples } from './examples.js';

describe('formats', () => {
  it('has examples for every format', () => {
    expect(Object.keys(examples).sort()).toEqual([...formatNames].sort());
  });
  for (const name of formatNames) {
    describe(name, () => {
      for (const v of examples[name].valid) it(`accepts ${JSON.stringify(v)}`, () => expect(formats[name](v)).toBe(true));
      for (const v of examples[name].invalid) it(`rejects ${JSON.stringify(v)}`, () => expect(formats[name](v)).toBe(false));
    });
  }
});

describe('one module per format (@frontdoor/validators/formats/<camelName>)', () => {
  for (const name of formatNames) {
    const camel = name.replace(/-([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
    it(`formats/${camel} exports ${camel}, the function of "${name}"`, async () => {
      const mod = (await import(`../src/formats/${camel}.ts`)) as Record<string, unknown>;
      expect(mod[camel]).toBe(formats[name]);
    });
  }
});

describe('alphanumeric on long input (the regexp path past 64 characters)', () => {
  it('accepts letters and digits and rejects anything else at any position', () => {
    expect(formats.alphanumeric('aZ9'.repeat(1000))).toBe(true);
    expect(formats.alphanumeric('aZ9'.repeat(1000) + '-')).toBe(false);
    expect(formats.alphanumeric('é' + 'a'.repeat(100))).toBe(false);
    expect(formats.alphanumeric('a'.repeat(64) + '\n')).toBe(false);
  });
});
