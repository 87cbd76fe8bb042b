import { createElement } from 'react';
import { describe, expect, it } from 'vitest';
import { deepEquals as rjsfDeepEquals } from '@rjsf/utils';
import { createCustomEqual, deepEquals } from '../../src/engine/form/deep-equals';

/**
 * The browser build's deep equality for rjsf (src/engine/form/deep-equals.ts, in place of fast-equals)
 * answers as rjsf's own (fast-equals under vitest) on what rjsf compares.
 */
const fn = () => 1;
const circular = (): Record<string, unknown> => {
  const node: Record<string, unknown> = { name: 'a', list: [1, 2] };
  node.self = node;
  return node;
};
const nullProto = (value: number) => Object.assign(Object.create(null) as Record<string, unknown>, { value });
class Custom {
  constructor(public value: number) {}
}

const cases: Array<[string, unknown, unknown]> = [
  ['same strings', 'a', 'a'],
  ['other strings', 'a', 'b'],
  ['NaN', Number.NaN, Number.NaN],
  ['+0 and -0', 0, -0],
  ['number and string', 1, '1'],
  ['null and undefined', null, undefined],
  ['null and object', null, {}],
  ['two functions', fn, () => 2],
  ['function and object', fn, {}],
  ['form data', { email: 'a@b.c', remember: true, tags: ['x'] }, { email: 'a@b.c', remember: true, tags: ['x'] }],
  ['form data, one value differs', { email: 'a@b.c', remember: true }, { email: 'a@b.c', remember: false }],
  ['keys in another order', { a: 1, b: 2 }, { b: 2, a: 1 }],
  ['a key missing', { a: 1, b: undefined }, { a: 1, c: undefined }],
  ['more keys', { a: 1 }, { a: 1, b: 2 }],
  ['arrays', [1, [2, { c: 3 }]], [1, [2, { c: 3 }]]],
  ['arrays of other length', [1, 2], [1, 2, 3]],
  ['array and object', [], {}],
  ['ui schema with a component', { 'ui:widget': fn, 'ui:options': { label: false } }, { 'ui:widget': () => null, 'ui:options': { label: false } }],
  ['React elements', createElement('b', { id: 'x' }, 'hi'), createElement('b', { id: 'x' }, 'hi')],
  ['React elements, other props', createElement('b', { id: 'x' }), createElement('b', { id: 'y' })],
  ['dates', new Date(5), new Date(5)],
  ['other dates', new Date(5), new Date(6)],
  ['invalid dates', new Date(Number.NaN), new Date(Number.NaN)],
  ['regular expressions', /a+/g, /a+/g],
  ['regular expressions, other flags', /a+/g, /a+/i],
  ['maps', new Map([['a', { b: 1 }]]), new Map([['a', { b: 1 }]])],
  ['other maps', new Map([['a', 1]]), new Map([['a', 2]])],
  ['sets', new Set([1, { a: 2 }]), new Set([{ a: 2 }, 1])],
  ['other sets', new Set([1, 2]), new Set([1, 3])],
  ['null-prototype objects', nullProto(1), nullProto(1)],
  ['null-prototype and plain', nullProto(1), { value: 1 }],
  ['class instances', new Custom(1), new Custom(1)],
  ['class instance and plain', new Custom(1), { value: 1 }],
  ['cycles', circular(), circular()],
  [
    'schemas',
    { type: 'object', properties: { email: { type: 'string', format: 'email' } }, required: ['email'] },
    { type: 'object', properties: { email: { type: 'string', format: 'email' } }, required: ['email'] },
  ],
  ['schemas, other format', { type: 'string', format: 'email' }, { type: 'string', format: 'uri' }],
];

describe('deepEquals without fast-equals', () => {
  it.each(cases)('%s: as rjsf answers', (_name, a, b) => {
    const expected = rjsfDeepEquals(a, b);
    expect(deepEquals(a, b)).toBe(expected);
    expect(deepEquals(b, a)).toBe(rjsfDeepEquals(b, a));
  });

  it('tells equal from unequal (a control: not everything is equal)', () => {
    expect(cases.filter(([, a, b]) => !deepEquals(a, b)).length).toBeGreaterThan(10);
    expect(cases.filter(([, a, b]) => deepEquals(a, b)).length).toBeGreaterThan(10);
  });

  it('is what the factory gives rjsf', () => {
    expect(createCustomEqual()).toBe(deepEquals);
  });
});
