import { describe, expect, it } from 'vitest';
import Ajv from 'ajv';
import addValidators, { enUsValidation, limits, meetsPasswordPolicy, messageKeyFor, setInUseChecker } from '../src/index.js';

const ajv = addValidators(new Ajv({ allErrors: true }));
const check = (schema: object, data: unknown) => {
  const v = ajv.compile(schema);
  const ok = v(data);
  return { ok, keys: (v.errors ?? []).map((e) => messageKeyFor(e)) };
};

describe('passwordPolicy', () => {
  const cases: [string, boolean][] = [
    ['Passw0rd', true],
    ['password1!', true],
    ['PASSWORD1!', true],
    ['Password!', true],
    ['pass word1', true],
    ['password', false],
    ['Password', false],
    ['Pa1!', false],
    ['12345678!', false],
    ['Aa1!'.repeat(18), true],
    ['Aa1!'.repeat(18) + 'x', false],
    ['ÉCOLE école', true],
    // 72 and 73 code points in 140 and 142 UTF-16 units; then far too long
    ['Aa1!' + '😀'.repeat(68), true],
    ['Aa1!' + '😀'.repeat(69), false],
    ['Aa1!' + 'x'.repeat(100_000), false],
  ];
  for (const [pw, ok] of cases) {
    it(`${ok ? 'accepts' : 'rejects'} ${JSON.stringify(pw)}`, () => {
      expect(meetsPasswordPolicy(pw)).toBe(ok);
      expect(check({ type: 'string', passwordPolicy: true }, pw)).toEqual({
        ok,
        keys: ok ? [] : [{ key: 'validation.password', values: {} }],
      });
    });
  }
  it('passwordPolicy: false imposes nothing', () => expect(check({ type: 'string', passwordPolicy: false }, 'x').ok).toBe(true));
});

describe('integerRange', () => {
  const s = { integerRange: [-5, 10] };
  it('checks numbers and integer strings inclusively', () => {
    for (const v of [-5, 0, 10, '-5', '10', '0']) expect(check(s, v).ok, String(v)).toBe(true);
    for (const v of [-6, 11, 1.5, '11', '01', '+1', '1e1', ' 1', '']) expect(check(s, v).ok, String(v)).toBe(false);
    expect(check(s, 11).keys).toEqual([{ key: 'validation.integerRange', values: { min: -5, max: 10 } }]);
  });
  it('rejects a bad range at compile time', () => {
    expect(() => ajv.compile({ integerRange: [5, 1] })).toThrow(/min 5/);
    expect(() => ajv.compile({ integerRange: [1.5, 2] })).toThrow();
  });
});

describe('sameAs, notBlank, limit', () => {
  it('compares with the sibling', () => {
    const s = { type: 'object', properties: { p: { type: 'string' }, c: { type: 'string', sameAs: 'p' } } };
    expect(check(s, { p: 'a', c: 'a' }).ok).toBe(true);
    expect(check(s, { p: 'a', c: 'b' }).keys).toEqual([{ key: 'validation.passwordsDoNotMatch', values: { field: 'p' } }]);
  });
  it('notBlank trims', () => {
    expect(check({ type: 'string', notBlank: true }, '\u00a0\n').ok).toBe(false);
    expect(check({ type: 'string', notBlank: true }, ' a ').ok).toBe(true);
  });
  it('limits are SPEC §9 and count code points', () => {
    expect(limits).toEqual({ name: 150, organization: 1000, defaultItem: 150 });
    expect(check({ type: 'string', limit: 'name' }, '😀'.repeat(150)).ok).toBe(true);
    expect(check({ type: 'string', limit: 'name' }, 'a'.repeat(151)).keys).toEqual([{ key: 'validation.maxLength', values: { maxCount: 150 } }]);
    expect(() => ajv.compile({ limit: 'nope' })).toThrow();
  });
  it('counts code points between the limit and twice the limit, and decides outside it from the length alone', () => {
    const name = (s: string) => check({ type: 'string', limit: 'name' }, s).ok;
    expect(name('😀'.repeat(150))).toBe(true); // 300 UTF-16 units
    expect(name('😀'.repeat(151))).toBe(false);
    expect(name('😀'.repeat(149) + 'ab')).toBe(false); // 151 code points in 300 units
    expect(name('\ud800'.repeat(151))).toBe(false); // lone surrogates count one each
    expect(name('a'.repeat(100_000))).toBe(false);
  });
});

describe('inUse', () => {
  it('needs an $async schema', () => {
    expect(() => ajv.compile({ type: 'string', inUse: 'email' })).toThrow(/\$async/);
  });
  it('calls the checker given as plugin option', async () => {
    const seen: string[] = [];
    const a = addValidators(new Ajv(), { inUse: (v, kind) => (seen.push(`${kind}:${v}`), v === 'acme') });
    try {
      const v = a.compile({ $async: true, type: 'string', inUse: 'organization' });
      await expect(v('other')).resolves.toBe('other');
      const err = await Promise.resolve(v('acme')).catch((e) => e);
      expect(err.errors.map(messageKeyFor)).toEqual([{ key: 'validation.inUse', values: { kind: 'organization' } }]);
      await expect(v('')).resolves.toBe('');
      expect(seen).toEqual(['organization:other', 'organization:acme']);
    } finally {
      setInUseChecker(undefined);
    }
  });
});

describe('messageKeyFor', () => {
  it("maps ajv's built-in keywords", () => {
    expect(check({ type: 'object', required: ['x'] }, {}).keys).toEqual([{ key: 'validation.required', values: { field: 'x' } }]);
    expect(check({ type: 'string', minLength: 3 }, 'a').keys).toEqual([{ key: 'validation.minLength', values: { minCount: 3 } }]);
    expect(check({ type: 'string', maxLength: 2 }, 'abc').keys).toEqual([{ key: 'validation.maxLength', values: { maxCount: 2 } }]);
    expect(check({ type: 'array', maxItems: 1 }, [1, 2]).keys).toEqual([{ key: 'validation.maxItems', values: { maxCount: 1 } }]);
    expect(check({ type: 'string', pattern: '^a$' }, 'b').keys).toEqual([{ key: 'validation.invalid', values: {} }]);
    expect(check({ type: 'string', format: 'mfa-code' }, '12').keys).toEqual([{ key: 'validation.mfaCode', values: {} }]);
    expect(check({ type: 'string', format: 'ipv4' }, 'x').keys).toEqual([{ key: 'validation.format.ipv4', values: {} }]);
    expect(messageKeyFor({ name: 'format', params: { format: 'email' } })).toEqual({ key: 'validation.email', values: {} });
  });
  it('has an en-us text for every key it returns', () => {
    const file = enUsValidation;
    for (const key of ['required', 'invalid', 'email', 'mfaCode', 'password', 'passwordsDoNotMatch', 'integerRange', 'inUse', 'emailInUse']) {
      expect(file[key as keyof typeof file], key).toBeTypeOf('string');
    }
    expect(file.password).toBe(
      'Password must be between (8) and (72) characters and meet 3 of the following criteria: lower case letter, upper case letter, special character, number.',
    );
    expect(file.minLength).toBe('Field must contain at least {{minCount}} characters.');
    expect(file.maxLength).toBe('Field exceeds the maximum character count of {{maxCount}}.');
    expect(file.passwordsDoNotMatch).toBe('Passwords do not match');
    expect(file.emailInUse).toBe('Email Address has already been registered.');
  });
});
