import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RJSFSchema } from '@rjsf/utils';
import { compileSchemaValidatorsCode } from '@rjsf/validator-ajv8/compileSchemaValidators';
import Ajv from 'ajv';
import addValidators, { DEFAULT_FORMATS_MODULE, enUsValidation, languages, limits, validationTexts, type Language } from '@frontdoor/validators';
import { messageKeyFor } from '@frontdoor/validators/messages';

/**
 * How the app uses @frontdoor/validators (the package has its own tests in packages/validators):
 * by package name, as rjsf's precompiled validators, with the app's texts and limits in step.
 */
const root = process.cwd();
const nodeRequire = createRequire(join(root, 'package.json'));

/** Loads generated CommonJS with Node's own require: package names resolve as in any project. */
function load(code: string): Record<string, unknown> {
  const module = { exports: {} as Record<string, unknown> };
  new Function('require', 'module', 'exports', code)(nodeRequire, module, module.exports);
  return module.exports;
}

describe('the app and @frontdoor/validators', () => {
  it('rjsf precompiles with the plugin as extenderFn; ajv-formats formats keep working', () => {
    const schema: RJSFSchema = {
      type: 'object',
      properties: {
        email: { type: 'string', format: 'email' },
        when: { type: 'string', format: 'date-time' },
        host: { type: 'string', format: 'hostname' },
        link: { type: 'string', format: 'url' },
        org: { type: 'string', notBlank: true, limit: 'organization' } as RJSFSchema,
      },
    };
    const code = compileSchemaValidatorsCode(schema, { extenderFn: (ajv) => addValidators(ajv) });
    expect(code).toContain(`require("${DEFAULT_FORMATS_MODULE}")`);
    const validate = Object.values(load(code)).find((f) => typeof f === 'function') as ((d: unknown) => boolean) & { errors: never[] };
    expect(validate({ email: 'a@example.com', when: '2024-01-02T03:04:05Z', host: 'example.com', link: 'https://example.com', org: 'Acme' })).toBe(true);
    expect(validate({ email: '"q"@example.com', when: 'yesterday', host: '-x', link: 'javascript:alert(1)', org: ' ' })).toBe(false);
    expect(validate.errors.map((e) => messageKeyFor(e).key).sort()).toEqual(
      ['validation.email', 'validation.format.hostname', 'validation.format.url', 'validation.invalid', 'validation.required'].sort(),
    );
  });

  it('the generated screen validators require the formats by package name only, one module per format', () => {
    const dir = join(root, 'src/generated/screens');
    const files = readdirSync(dir).filter((f) => f.endsWith('.validators.cjs'));
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const requires = [...readFileSync(join(dir, file), 'utf8').matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1]);
      for (const id of requires) expect(id, file).toMatch(/^(@frontdoor\/validators\/formats(\/[a-zA-Z0-9]+)?|ajv\/dist\/runtime\/[a-z0-9]+)$/);
    }
  });

  it('locales/en-us/validation.json holds the package texts (the app merges it under "validation.")', () => {
    expect(JSON.parse(readFileSync(join(root, 'locales/en-us/validation.json'), 'utf8'))).toEqual(enUsValidation);
  });

  it("every language of the app has the package's texts for it in locales/<language>/validation.json", () => {
    const appLanguages = readdirSync(join(root, 'locales')).filter((l) => existsSync(join(root, 'locales', l, 'validation.json')));
    expect(appLanguages.length).toBeGreaterThanOrEqual(16);
    for (const language of appLanguages) {
      // A translator who changes one side changes both: packages/validators/src/texts/<language>.ts.
      expect(languages, language).toContain(language);
      expect(JSON.parse(readFileSync(join(root, 'locales', language, 'validation.json'), 'utf8')), language).toEqual(validationTexts[language as Language]);
    }
  });

  it('the server answers a bad body with the text of the rule, not its i18n key', () => {
    const validate = addValidators(new Ajv({ allErrors: true })).compile({
      type: 'object',
      properties: { password: { type: 'string', passwordPolicy: true } },
    });
    expect(validate({ password: 'short' })).toBe(false);
    expect(validate.errors?.[0]?.message).toBe(enUsValidation.password);
    expect(messageKeyFor(validate.errors![0]!).key).toBe('validation.password'); // what the app translates
  });

  it('schemas/defs/limits.json has the limits of the `limit` keyword', () => {
    const defs = JSON.parse(readFileSync(join(root, 'schemas/defs/limits.json'), 'utf8'));
    expect(defs.$defs.name.maxLength).toBe(limits.name);
    expect(defs.$defs.organization.maxLength).toBe(limits.organization);
    expect(defs.$defs.defaultItem.maxLength).toBe(limits.defaultItem);
  });
});
