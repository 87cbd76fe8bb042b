import { describe, expect, it } from 'vitest';
import Ajv from 'ajv';
import AjvJTD from 'ajv/dist/jtd.js';
import standaloneCode from 'ajv/dist/standalone/index.js';
import addFormats from 'ajv-formats';
import addValidators, { messageKeyFor, email, formats, setInUseChecker } from '../src/index.js';

/** The formats ajv-formats also defines: Fastify adds it after the user's plugins. */
const SHARED = ['email', 'hostname', 'ipv4', 'ipv6', 'uri', 'url'] as const;
const valid = (ajv: Ajv, format: string, s: string) => ajv.validate({ type: 'string', format }, s);

describe('plugin entry', () => {
  it('registers email and notBlank; messages are text, keys come from messageKeyFor', () => {
    const ajv = addValidators(new Ajv({ allErrors: true }));
    const v = ajv.compile({
      type: 'object',
      properties: { email: { type: 'string', format: 'email' }, org: { type: 'string', notBlank: true } },
      required: ['email'],
    });
    expect(v({ email: 'a.b@example.com', org: 'Acme' })).toBe(true);
    expect(v({ email: 'a..b@example.com', org: ' \t ' })).toBe(false);
    expect(v.errors?.map((e) => messageKeyFor(e).key).sort()).toEqual(['validation.email', 'validation.required']);
    expect(v.errors?.find((e) => e.keyword === 'notBlank')?.message).toBe('Required');
    expect(v({ org: 'x' })).toBe(false);
    expect(messageKeyFor(v.errors![0]!)).toEqual({ key: 'validation.required', values: { field: 'email' } });
  });

  it("overrides ajv-formats' formats when ajv-formats comes first", () => {
    const before = addValidators(addFormats(new Ajv()));
    expect(valid(before, 'email', '"quoted"@example.com')).toBe(false);
    expect(valid(before, 'email', 'a@localhost')).toBe(false);
    expect(valid(before, 'date-time', '2024-01-02T03:04:05Z')).toBe(true); // theirs still there
    expect(formats.email).toBe(email);
  });

  it('keeps its formats when ajv-formats comes after it, as in Fastify (https only: http:// refused)', () => {
    const ajv = addFormats(addValidators(new Ajv(), { urlSchemes: ['https'] }));
    expect(valid(ajv, 'url', 'https://x.example')).toBe(true); // control
    expect(valid(ajv, 'url', 'http://x.example')).toBe(false); // only our rule refuses this
    expect(valid(ajv, 'url', 'javascript:alert(1)')).toBe(false);
    expect(valid(ajv, 'hostname', '1.2.3.4')).toBe(false); // ajv-formats: valid
    expect(valid(ajv, 'hostname', 'example.com.')).toBe(false);
    expect(valid(ajv, 'email', 'joe@example.c0m')).toBe(false);
    expect(valid(ajv, 'uri', 'http://example.com:port/')).toBe(false);
    for (const name of SHARED.filter((n) => n !== 'url')) expect(ajv.formats[name], name).toBe(formats[name]);
    expect(valid(ajv, 'date-time', '2024-01-02T03:04:05Z')).toBe(true); // ajv-formats' other formats are added
    expect(valid(ajv, 'date-time', 'yesterday')).toBe(false);
    // A name the plugin was told not to register is left to whoever adds it.
    const subset = addFormats(addValidators(new Ajv(), { formats: ['email'] }));
    expect(valid(subset, 'hostname', '1.2.3.4')).toBe(true);
    expect(valid(subset, 'email', 'joe@example.c0m')).toBe(false);
  });

  it('standalone code: ajv-formats after the plugin is refused with what to do; before it works', () => {
    const make = () => new Ajv({ code: { source: true } });
    expect(() => addFormats(addValidators(make()))).toThrow(
      /format "date" was added after the plugin.*add that plugin \(ajv-formats\) before @frontdoor\/validators/,
    );
    const ok = addValidators(addFormats(make()));
    const code = standaloneCode(ok, ok.compile({ type: 'string', format: 'date-time' }));
    expect(code).toContain('require("ajv-formats/dist/formats")');
    expect(code).toContain('require("@frontdoor/validators/formats")');
  });

  it('refuses ajv in JTD mode with a clear message', () => {
    expect(() => addValidators(new AjvJTD())).toThrow(/JTD mode \(ajv\/dist\/jtd, RFC 8927\).*no formats.*use Ajv, Ajv2019 or Ajv2020/);
    expect(() => addValidators(new Ajv())).not.toThrow(); // control
  });

  it('inUse: each ajv instance has its own checker; others use the process-wide one', async () => {
    const schema = { $async: true, type: 'string', inUse: 'email' } as const;
    // An async validator resolves, or rejects with the inUse error.
    const taken = (v: (d: unknown) => unknown, value: string) =>
      Promise.resolve()
        .then(() => v(value))
        .then(
          () => false,
          () => true,
        );
    const a = addValidators(new Ajv(), { inUse: (value) => value === 'a@example.com' }).compile(schema);
    const b = addValidators(new Ajv(), { inUse: (value) => value === 'b@example.com' }).compile(schema);
    const plain = addValidators(new Ajv()).compile(schema);
    expect(await taken(a, 'a@example.com')).toBe(true);
    expect(await taken(a, 'b@example.com')).toBe(false); // the second instance did not replace the first's
    expect(await taken(b, 'b@example.com')).toBe(true);
    expect(await taken(b, 'a@example.com')).toBe(false);
    setInUseChecker((value) => value === 'global@example.com');
    try {
      expect(await taken(plain, 'global@example.com')).toBe(true);
      expect(await taken(plain, 'a@example.com')).toBe(false);
      expect(await taken(a, 'global@example.com')).toBe(false); // its own checker wins
    } finally {
      setInUseChecker(undefined);
    }
    expect(await taken(plain, 'global@example.com')).toBe(false);
  });

  it('inUse: adding the plugin again with a checker replaces that instance’s checker only', async () => {
    const ajv = addValidators(new Ajv(), { inUse: () => true });
    const v = ajv.compile({ $async: true, type: 'string', inUse: 'name' });
    addValidators(ajv, { inUse: () => false });
    await expect(Promise.resolve(v('x'))).resolves.toBe('x');
  });

  it('can register a subset', () => {
    const ajv = addValidators(new Ajv(), { formats: ['email'], keywords: [] });
    expect(ajv.getKeyword('notBlank')).toBe(false);
    expect(() => ajv.compile({ type: 'string', format: 'hostname' })).toThrow(/unknown format/);
  });
});
