import { describe, expect, it } from 'vitest';
import { decodeState, decodeStateJson, encodeState } from '../../catalogue/language/state-param';
import type { StateField } from '../../src/engine/types';

const b64url = (text: string) => Buffer.from(text, 'utf8').toString('base64url');

const FIELDS: Record<string, StateField> = {
  mfaType: { type: 'string', enum: ['TOTP', 'SMS', 'WEBAUTHN'] },
  loginToken: { type: 'string', maxLength: 16 },
  available_mfa: { type: 'stringArray', enum: ['TOTP', 'SMS', 'WEBAUTHN'] },
  remember: { type: 'boolean' },
  attempts: { type: 'number' },
};

describe('encodeState / decodeStateJson', () => {
  it('round-trips, including non-ASCII text', () => {
    const value = { a: 'plain', b: 'Zoë 日本語 🙂 ／', n: 1.5, list: ['x', 'y'], t: true, nested: { k: null } };
    const encoded = encodeState(value);
    expect(encoded).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeStateJson(encoded)).toEqual(value);
  });

  it('is standard base64url of UTF-8 JSON without padding', () => {
    const value = { ok: '??>>' };
    expect(encodeState(value)).toBe(b64url(JSON.stringify(value)));
  });

  it('accepts padded input', () => {
    const raw = Buffer.from('{"a":1}').toString('base64');
    expect(raw.endsWith('=')).toBe(true);
    expect(decodeStateJson(raw)).toEqual({ a: 1 });
  });

  it.each([
    ['null', null],
    ['undefined', undefined],
    ['empty', ''],
    ['bad characters', 'abc$%def'],
    ['standard base64 + and /', Buffer.from('{"a":"???>>>"}').toString('base64')],
    ['whitespace', ' eyJhIjoxfQ'],
    ['too much padding', 'eyJhIjoxfQ==='],
    ['impossible length', 'a'],
  ])('rejects bad base64: %s', (_name, raw) => {
    expect(decodeStateJson(raw as string | null | undefined)).toBeUndefined();
  });

  it('rejects bad JSON', () => {
    expect(decodeStateJson(b64url('{not json'))).toBeUndefined();
    expect(decodeStateJson(b64url(''))).toBeUndefined();
  });

  it('rejects invalid UTF-8', () => {
    expect(decodeStateJson(Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]).toString('base64url'))).toBeUndefined();
  });

  it('rejects arrays, strings, numbers and null', () => {
    expect(decodeStateJson(b64url('[1,2]'))).toBeUndefined();
    expect(decodeStateJson(b64url('"text"'))).toBeUndefined();
    expect(decodeStateJson(b64url('42'))).toBeUndefined();
    expect(decodeStateJson(b64url('null'))).toBeUndefined();
  });

  it('rejects oversize input', () => {
    const big = encodeState({ pad: 'x'.repeat(7000) });
    expect(big.length).toBeGreaterThan(8192);
    expect(decodeStateJson(big)).toBeUndefined();
    const fits = encodeState({ pad: 'x'.repeat(5000) });
    expect(decodeStateJson(fits)).toEqual({ pad: 'x'.repeat(5000) });
  });
});

describe('decodeState', () => {
  it('keeps declared fields of the right type', () => {
    const raw = encodeState({ mfaType: 'TOTP', loginToken: 'tok', available_mfa: ['TOTP', 'SMS'], remember: true, attempts: 2 });
    expect(decodeState(raw, FIELDS)).toEqual({ mfaType: 'TOTP', loginToken: 'tok', available_mfa: ['TOTP', 'SMS'], remember: true, attempts: 2 });
  });

  it('drops unknown fields', () => {
    const raw = encodeState({ mfaType: 'SMS', isAdmin: true, __proto__x: 1, redirect: 'https://evil.com' });
    expect(decodeState(raw, FIELDS)).toEqual({ mfaType: 'SMS' });
  });

  it('drops fields of the wrong type', () => {
    const raw = encodeState({ mfaType: 1, loginToken: ['a'], available_mfa: 'TOTP', remember: 'true', attempts: '2' });
    expect(decodeState(raw, FIELDS)).toEqual({});
  });

  it('drops non-finite numbers (JSON cannot carry them; null is not a number)', () => {
    expect(decodeState(b64url('{"attempts":null}'), FIELDS)).toEqual({});
  });

  it('filters by enum and maxLength', () => {
    expect(decodeState(encodeState({ mfaType: 'EMAIL' }), FIELDS)).toEqual({});
    expect(decodeState(encodeState({ available_mfa: ['TOTP', 'EMAIL'] }), FIELDS)).toEqual({});
    expect(decodeState(encodeState({ available_mfa: [] }), FIELDS)).toEqual({ available_mfa: [] });
    expect(decodeState(encodeState({ loginToken: 'x'.repeat(17) }), FIELDS)).toEqual({});
    expect(decodeState(encodeState({ loginToken: 'x'.repeat(16) }), FIELDS)).toEqual({ loginToken: 'x'.repeat(16) });
  });

  it('a string array is capped at 32 items and must hold strings', () => {
    const free: Record<string, StateField> = { list: { type: 'stringArray' } };
    expect(decodeState(encodeState({ list: Array(33).fill('a') }), free)).toEqual({});
    expect(decodeState(encodeState({ list: Array(32).fill('a') }), free)).toEqual({ list: Array(32).fill('a') });
    expect(decodeState(encodeState({ list: ['a', 1] }), free)).toEqual({});
  });

  it('is undefined when a required field is missing or invalid', () => {
    expect(decodeState(encodeState({ mfaType: 'TOTP' }), FIELDS, ['mfaType', 'loginToken'])).toBeUndefined();
    expect(decodeState(encodeState({ mfaType: 'BAD', loginToken: 't' }), FIELDS, ['mfaType', 'loginToken'])).toBeUndefined();
    expect(decodeState(encodeState({ mfaType: 'TOTP', loginToken: 't' }), FIELDS, ['mfaType', 'loginToken'])).toEqual({ mfaType: 'TOTP', loginToken: 't' });
  });

  it('is undefined for anything decodeStateJson rejects', () => {
    expect(decodeState(undefined, FIELDS)).toBeUndefined();
    expect(decodeState('%%%', FIELDS)).toBeUndefined();
    expect(decodeState(b64url('[]'), FIELDS)).toBeUndefined();
  });
});
