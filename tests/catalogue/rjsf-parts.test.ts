import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { rjsfPartsOf } from '../../catalogue/check/rjsf-parts';

/** Which of rjsf's deferred parts a screen brings in its own chunk (so its form shows them at once). */
describe('rjsf parts of a form', () => {
  it('a text-and-checkbox form (sign-in) needs none', () => {
    const schema = { type: 'object', properties: { email: { type: 'string', format: 'email' }, password: { type: 'string' }, keep: { type: 'boolean' } } };
    expect(rjsfPartsOf(schema, { password: { 'ui:widget': 'password' } })).toEqual({ fields: [], widgets: [] });
  });

  it('finds selects by ui:widget or by choices, radios, numbers and nested fields', () => {
    const schema = {
      type: 'object',
      properties: {
        country: { type: 'string', enum: ['NO', 'SE'] },
        size: { type: 'string', oneOf: [{ const: 'S' }, { const: 'L' }] },
        method: { type: 'string', enum: ['a', 'b'] },
        address: { type: 'object', properties: { floor: { type: 'integer' }, site: { type: 'string', format: 'uri' } } },
        agree: { type: 'boolean', enum: [true] },
      },
    };
    expect(rjsfPartsOf(schema, { method: { 'ui:widget': 'radio' } })).toEqual({
      fields: ['NumberField'],
      widgets: ['RadioWidget', 'SelectWidget', 'URLWidget'],
    });
  });

  it('an array of choices is a multiple select, or checkboxes when the UI schema says so', () => {
    const schema = { type: 'object', properties: { roles: { type: 'array', uniqueItems: true, items: { type: 'string', enum: ['a', 'b'] } } } };
    expect(rjsfPartsOf(schema, {})).toEqual({ fields: ['ArrayField'], widgets: ['SelectWidget'] });
    expect(rjsfPartsOf(schema, { roles: { 'ui:widget': 'checkboxes' } })).toEqual({ fields: ['ArrayField'], widgets: ['CheckboxesWidget'] });
  });

  it('custom widgets of the front door are not rjsf parts', () => {
    const schema = { type: 'object', properties: { phone: { type: 'string' }, code: { type: 'string' } } };
    expect(rjsfPartsOf(schema, { phone: { 'ui:widget': 'phone' }, code: { 'ui:widget': 'otp' } })).toEqual({ fields: [], widgets: [] });
  });

  it('the generated register module imports what its form renders; login imports nothing of rjsf', () => {
    const register = readFileSync('src/generated/screens/register.ts', 'utf8');
    expect(register).toMatch(/import SelectWidget from '@rjsf\/core\/lib\/components\/widgets\/SelectWidget\.js'/);
    expect(register).toMatch(/rjsf: \{ fields: \{[^}]*ArrayField/);
    expect(readFileSync('src/generated/screens/login.ts', 'utf8')).not.toContain('@rjsf/core');
  });
});
