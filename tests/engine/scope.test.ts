import { describe, expect, it } from 'vitest';
import { holds } from '../../catalogue/language/conditions';
import { resolveMapping, resolveSource, resolveText, type Scope } from '../../catalogue/language/scope';

function scope(overrides: Partial<Scope> = {}): Scope {
  return {
    form: { email: 'a@example.com', nested: { 'a/b': 1, 'c~d': 2, deep: { x: 'y' } }, list: ['zero', 'one'], empty: '' },
    ctx: { sso: true, idpName: 'Demo IdP', off: false, zero: 0 },
    params: { verificationCode: 'abc 123' },
    query: { return_to: '/app/x', message: 'activated' },
    env: { returnTo: '/ws/foo', origin: 'https://localhost' },
    flags: { branded: false, production: true, selfRegistrationEnabled: true, expiredTrialCookie: false },
    response: { resultCode: 'SUCCESS', url: 'https://idp.example.com/sso', nested: { list: [{ id: 7 }] } },
    ...overrides,
  };
}

describe('resolveSource', () => {
  it('reads form fields by JSON pointer', () => {
    const s = scope();
    expect(resolveSource('/email', s)).toBe('a@example.com');
    expect(resolveSource('/nested/deep/x', s)).toBe('y');
    expect(resolveSource('/nested/a~1b', s)).toBe(1);
    expect(resolveSource('/nested/c~0d', s)).toBe(2);
    expect(resolveSource('/list/1', s)).toBe('one');
    expect(resolveSource('/empty', s)).toBe('');
    expect(resolveSource('/missing', s)).toBeUndefined();
    expect(resolveSource('/email/deeper', s)).toBeUndefined();
  });

  it('reads $ctx, $params, $query, $env and $response', () => {
    const s = scope();
    expect(resolveSource('$ctx/idpName', s)).toBe('Demo IdP');
    expect(resolveSource('$ctx/off', s)).toBe(false);
    expect(resolveSource('$params/verificationCode', s)).toBe('abc 123');
    expect(resolveSource('$query/return_to', s)).toBe('/app/x');
    expect(resolveSource('$env/returnTo', s)).toBe('/ws/foo');
    expect(resolveSource('$response/url', s)).toBe('https://idp.example.com/sso');
    expect(resolveSource('$response/nested/list/0/id', s)).toBe(7);
    expect(resolveSource('$ctx/nope', s)).toBeUndefined();
  });

  it('a bare root returns the whole object', () => {
    const s = scope();
    expect(resolveSource('$ctx', s)).toEqual(s.ctx);
    expect(resolveSource('$response', s)).toEqual(s.response);
  });

  it('$response without a response is undefined, never a throw', () => {
    expect(resolveSource('$response/url', scope({ response: undefined }))).toBeUndefined();
    expect(resolveSource('$response/url', scope({ response: null }))).toBeUndefined();
    expect(resolveSource('$response/url', scope({ response: 'text' }))).toBeUndefined();
  });

  it('does not read inherited properties', () => {
    expect(resolveSource('$ctx/constructor', scope())).toBeUndefined();
    expect(resolveSource('/__proto__', scope())).toBeUndefined();
    expect(resolveSource('$ctx/toString', scope())).toBeUndefined();
  });

  it('constants, booleans and numbers are literal', () => {
    const s = scope();
    expect(resolveSource({ const: 'https://www.example.com/' }, s)).toBe('https://www.example.com/');
    expect(resolveSource({ const: { a: 1 } }, s)).toEqual({ a: 1 });
    expect(resolveSource({ const: null }, s)).toBeNull();
    expect(resolveSource({ const: '$ctx/idpName' }, s)).toBe('$ctx/idpName');
    expect(resolveSource(true, s)).toBe(true);
    expect(resolveSource(false, s)).toBe(false);
    expect(resolveSource(0, s)).toBe(0);
    expect(resolveSource(42.5, s)).toBe(42.5);
  });

  it('unknown roots and malformed strings resolve to undefined', () => {
    const s = scope();
    expect(resolveSource('$flags/production', s)).toBeUndefined();
    expect(resolveSource('$form/email', s)).toBeUndefined();
    expect(resolveSource('$window/location', s)).toBeUndefined();
    expect(resolveSource('$ctxx/idpName', s)).toBeUndefined();
    expect(resolveSource('$ctx.idpName', s)).toBeUndefined();
    expect(resolveSource('email', s)).toBeUndefined();
    expect(resolveSource('', s)).toBeUndefined();
    expect(resolveSource('ctx/idpName', s)).toBeUndefined();
  });
});

describe('resolveMapping', () => {
  it('builds an object and drops undefined values, keeping falsy ones', () => {
    const s = scope();
    expect(
      resolveMapping(
        {
          email: '/email',
          idp: '$ctx/idpName',
          missing: '/nope',
          gone: '$response/none',
          off: '$ctx/off',
          zero: '$ctx/zero',
          empty: '/empty',
          lit: { const: 1 },
          t: true,
        },
        s,
      ),
    ).toEqual({ email: 'a@example.com', idp: 'Demo IdP', off: false, zero: 0, empty: '', lit: 1, t: true });
  });

  it('undefined mapping gives an empty object', () => {
    expect(resolveMapping(undefined, scope())).toEqual({});
    expect(resolveMapping({}, scope())).toEqual({});
  });

  it('{const: undefined}-like values are dropped', () => {
    expect('x' in resolveMapping({ x: { const: undefined } }, scope())).toBe(false);
  });
});

describe('holds', () => {
  it('no condition holds', () => {
    expect(holds(undefined, scope())).toBe(true);
  });

  it('a ctx name holds when truthy', () => {
    const s = scope();
    expect(holds('sso', s)).toBe(true);
    expect(holds('off', s)).toBe(false);
    expect(holds('zero', s)).toBe(false);
    expect(holds('unknown', s)).toBe(false);
  });

  it("'!' negates", () => {
    const s = scope();
    expect(holds('!sso', s)).toBe(false);
    expect(holds('!off', s)).toBe(true);
    expect(holds('!unknown', s)).toBe(true);
  });

  it('$ flags read the environment flags, not ctx', () => {
    const s = scope({ ctx: { production: false, branded: true } });
    expect(holds('$production', s)).toBe(true);
    expect(holds('$branded', s)).toBe(false);
    expect(holds('!$branded', s)).toBe(true);
    expect(holds('$selfRegistrationEnabled', s)).toBe(true);
    expect(holds('$expiredTrialCookie', s)).toBe(false);
    expect(holds('!$production', s)).toBe(false);
  });

  it('an unknown $ flag is false (and its negation true)', () => {
    expect(holds('$notAFlag', scope())).toBe(false);
    expect(holds('!$notAFlag', scope())).toBe(true);
  });

  it("'=' compares as text, '^=' compares the start, and 'a|b' means any of them", () => {
    const s = scope({ ctx: { phoneNumber: '+6591234567', mfaType: 'SMSOTP', count: 3 }, form: { phone: '+14155550199' } });
    expect(holds('mfaType=SMSOTP', s)).toBe(true);
    expect(holds('mfaType=TOTP|SMSOTP', s)).toBe(true);
    expect(holds('mfaType=TOTP|DUO', s)).toBe(false);
    expect(holds('count=3', s)).toBe(true);
    expect(holds('phoneNumber^=+65|+971|+855|+880', s)).toBe(true);
    expect(holds('phoneNumber^=+971|+855', s)).toBe(false);
    expect(holds('!phoneNumber^=+65', s)).toBe(false);
    expect(holds('/phone^=+65|+971', s)).toBe(false);
    expect(holds('/phone^=+1', s)).toBe(true);
    // Nothing there: neither equal to nor starting with anything.
    expect(holds('missing^=+', s)).toBe(false);
    expect(holds('/missing=', s)).toBe(false);
  });

  it('arrays hold only when every flag holds (AND)', () => {
    const s = scope();
    expect(holds(['sso', '$production'], s)).toBe(true);
    expect(holds(['sso', '$branded'], s)).toBe(false);
    expect(holds(['!$production', '!$branded', '!marketing', '$selfRegistrationEnabled'], s)).toBe(false);
    expect(holds(['$production', '!$branded', '!marketing', '$selfRegistrationEnabled'], s)).toBe(true);
    expect(holds([], s)).toBe(true);
  });
});

describe('resolveText', () => {
  it('a plain key has no values', () => {
    expect(resolveText('login.submit', scope())).toEqual({ key: 'login.submit', values: {} });
  });
  it('values resolve against the scope', () => {
    expect(resolveText({ key: 'login.submitSso', values: { idpName: '$ctx/idpName', none: '/nope' } }, scope())).toEqual({
      key: 'login.submitSso',
      values: { idpName: 'Demo IdP' },
    });
  });
});
