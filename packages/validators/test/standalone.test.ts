/**
 * Every format and keyword in ajv standalone code (CommonJS), with the
 * formats module resolved to the source under test. The consumer test runs
 * the same from the packed tarball, ES module and CommonJS.
 */
import { describe, expect, it } from 'vitest';
import { createRequire } from 'node:module';
import Ajv from 'ajv';
import standaloneCode from 'ajv/dist/standalone';
import addValidators, { formatNames, messageKeyFor, keywordNames } from '../src/index.js';
import * as formatsModule from '../src/formats.js';
import { examples } from './examples.js';

const nodeRequire = createRequire(import.meta.url);
const MODULE = '@frontdoor/validators/formats';

/** Loads CommonJS standalone code; MODULE resolves to the TS source under test. */
function load(code: string): any {
  const requireShim = (id: string) => (id === MODULE ? formatsModule : nodeRequire(id));
  const module = { exports: {} as any };
  new Function('require', 'module', 'exports', code)(requireShim, module, module.exports);
  return module.exports;
}

const formatProps = Object.fromEntries(formatNames.map((f) => [f, { type: 'string', format: f }]));
const syncSchema = {
  $id: 'everything',
  type: 'object',
  properties: {
    ...formatProps,
    name: { type: 'string', notBlank: true, limit: 'name' },
    organization: { type: 'string', limit: 'organization' },
    item: { type: 'string', limit: 'defaultItem' },
    password: { type: 'string', passwordPolicy: true },
    passwordConfirm: { type: 'string', sameAs: 'password' },
    port: { type: 'integer', integerRange: [1, 65535] },
    portText: { type: 'string', integerRange: [1, 65535] },
  },
};
const asyncSchema = {
  $id: 'registration',
  $async: true,
  type: 'object',
  properties: { email: { type: 'string', format: 'email', inUse: 'email' } },
};

function validDoc(): Record<string, unknown> {
  const doc: Record<string, unknown> = Object.fromEntries(formatNames.map((f) => [f, examples[f].valid[0]]));
  Object.assign(doc, {
    name: 'Ada',
    organization: 'Acme',
    item: 'x',
    password: 'Passw0rd',
    passwordConfirm: 'Passw0rd',
    port: 443,
    portText: '8080',
  });
  return doc;
}

describe('standalone code', () => {
  const ajv = addValidators(new Ajv({ code: { source: true }, allErrors: true, schemas: [syncSchema, asyncSchema] }));
  const code = standaloneCode(ajv, { everything: 'everything', registration: 'registration' });
  const mod = load(code);

  it('references the formats module, not closures', () => {
    expect(code).toContain(`require("${MODULE}")`);
    expect(keywordNames.length).toBe(6);
  });

  it('accepts a valid document', () => {
    expect(mod.everything(validDoc())).toBe(true);
  });

  it("rejects each format's invalid examples with the format's key", () => {
    for (const f of formatNames) {
      for (const bad of examples[f].invalid) {
        const ok = mod.everything({ ...validDoc(), [f]: bad });
        expect(ok, `${f} ${JSON.stringify(bad)}`).toBe(false);
        const keys = mod.everything.errors.map((e: any) => messageKeyFor(e).key);
        expect(keys).toEqual([f === 'email' ? 'validation.email' : f === 'mfa-code' ? 'validation.mfaCode' : `validation.format.${f}`]);
      }
    }
  });

  it('runs every keyword', () => {
    const bad = {
      ...validDoc(),
      name: '   ',
      organization: 'o'.repeat(1001),
      item: 'i'.repeat(151),
      password: 'password',
      passwordConfirm: 'Password',
      port: 0,
      portText: '65536',
    };
    expect(mod.everything(bad)).toBe(false);
    const got = mod.everything.errors.map((e: any) => [e.instancePath, messageKeyFor(e)]);
    expect(got).toEqual([
      ['/name', { key: 'validation.required', values: {} }],
      ['/organization', { key: 'validation.maxLength', values: { maxCount: 1000 } }],
      ['/item', { key: 'validation.maxLength', values: { maxCount: 150 } }],
      ['/password', { key: 'validation.password', values: {} }],
      ['/passwordConfirm', { key: 'validation.passwordsDoNotMatch', values: { field: 'password' } }],
      ['/port', { key: 'validation.integerRange', values: { min: 1, max: 65535 } }],
      ['/portText', { key: 'validation.integerRange', values: { min: 1, max: 65535 } }],
    ]);
    expect(mod.everything({ ...validDoc(), name: 'n'.repeat(151) })).toBe(false);
    expect(messageKeyFor(mod.everything.errors[0])).toEqual({ key: 'validation.maxLength', values: { maxCount: 150 } });
  });

  it('runs the async inUse keyword against the registered checker', async () => {
    formatsModule.setInUseChecker(async (value, kind) => kind === 'email' && value === 'taken@example.com');
    try {
      await expect(mod.registration({ email: 'free@example.com' })).resolves.toEqual({ email: 'free@example.com' });
      const err = await mod.registration({ email: 'taken@example.com' }).catch((e: any) => e);
      expect(err.errors.map((e: any) => messageKeyFor(e))).toEqual([{ key: 'validation.emailInUse', values: { kind: 'email' } }]);
    } finally {
      formatsModule.setInUseChecker(undefined);
    }
  });
});

describe('standalone code with urlSchemes', () => {
  it('checks url against the configured schemes in the generated code too', () => {
    const ajv = addValidators(new Ajv({ code: { source: true } }), { urlSchemes: ['https', 'wss'] });
    ajv.addSchema({ $id: 'link', type: 'string', format: 'url' });
    const code = standaloneCode(ajv, { link: 'link' });
    expect(code).toContain(`urlWithSchemes(["https","wss"])`);
    const { link } = load(code);
    expect(link('wss://chat.example.com/socket')).toBe(true);
    expect(link('https://example.com')).toBe(true);
    expect(link('http://example.com')).toBe(false);
    expect(link('javascript:alert(1)')).toBe(false);
  });
  it('refuses a script scheme', () => {
    for (const scheme of ['javascript', 'VBScript', 'data', 'file']) {
      expect(() => addValidators(new Ajv(), { urlSchemes: ['https', scheme] })).toThrow(/can never be allowed/);
    }
  });
});
