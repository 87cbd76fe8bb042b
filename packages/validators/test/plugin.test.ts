import { describe, expect, it } from 'vitest';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import addValidators, { messageKeyFor, email, formats } from '../src/index.js';

describe('plugin entry', () => {
  it('registers email and notBlank with i18n message keys', () => {
    const ajv = addValidators(new Ajv({ allErrors: true }));
    const v = ajv.compile({
      type: 'object',
      properties: { email: { type: 'string', format: 'email' }, org: { type: 'string', notBlank: true } },
      required: ['email'],
    });
    expect(v({ email: 'a.b@example.com', org: 'Acme' })).toBe(true);
    expect(v({ email: 'a..b@example.com', org: ' \t ' })).toBe(false);
    expect(v.errors?.map((e) => messageKeyFor(e).key).sort()).toEqual(['validation.email', 'validation.required']);
    expect(v.errors?.find((e) => e.keyword === 'notBlank')?.message).toBe('validation.required');
    expect(v({ org: 'x' })).toBe(false);
    expect(messageKeyFor(v.errors![0]!)).toEqual({ key: 'validation.required', values: { field: 'email' } });
  });

  it("overrides ajv-formats' email whichever order they are added in", () => {
    const before = addValidators(addFormats(new Ajv()));
    expect(before.validate({ type: 'string', format: 'email' }, '"quoted"@example.com')).toBe(false);
    expect(before.validate({ type: 'string', format: 'email' }, 'a@localhost')).toBe(false);
    expect(formats.email).toBe(email);
  });

  it('can register a subset', () => {
    const ajv = addValidators(new Ajv(), { formats: ['email'], keywords: [] });
    expect(ajv.getKeyword('notBlank')).toBe(false);
    expect(() => ajv.compile({ type: 'string', format: 'hostname' })).toThrow(/unknown format/);
  });
});
