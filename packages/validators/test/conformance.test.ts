/**
 * JSON-Schema-Test-Suite format cases (ipv4, ipv6, hostname, email, uri) run
 * through the plugin, from the copy in fixtures/json-schema-test-suite (with
 * its LICENSE). Every suite file runs against the format of the same name;
 * `uri` passes every case (RFC 3986 exactly).
 * Where the product deliberately rejects what the standard allows, the case
 * is listed in EXCEPTIONS with the reason, and the test asserts the product
 * behaviour for it, so an exception can neither hide nor go stale.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Ajv2020 from 'ajv/dist/2020';
import addValidators from '../src/index.js';

const suiteDir = fileURLToPath(new URL('./fixtures/json-schema-test-suite/', import.meta.url));

interface SuiteGroup {
  description: string;
  schema: Record<string, unknown>;
  tests: { description: string; data: unknown; valid: boolean }[];
}

/** Suite file → plugin format. */
const FILES: Record<string, string> = { ipv4: 'ipv4', ipv6: 'ipv6', hostname: 'hostname', email: 'email', uri: 'uri' };

/** Named, documented exceptions: "<file>: <case description>" → why the product differs. */
export const EXCEPTIONS: Record<string, string> = {
  'email: a quoted string with a space in the local part is valid':
    'Quoted local parts (RFC 5322 quoted-string) are rejected: sign-in and registration accept dot-atom addresses only.',
  'email: a quoted string with a double dot in the local part is valid': 'Quoted local parts are rejected (dot-atom only).',
  'email: a quoted string with a @ in the local part is valid': 'Quoted local parts are rejected (dot-atom only).',
  'email: an IPv4-address-literal after the @ is valid': 'Address literals (RFC 5321 §4.1.3) are rejected: an account email needs a domain name.',
  'email: an IPv6-address-literal after the @ is valid': 'Address literals are rejected: an account email needs a domain name.',
};

describe('JSON-Schema-Test-Suite formats', () => {
  const ajv = addValidators(new Ajv2020({ strict: false }));
  const used = new Set<string>();
  for (const [file, format] of Object.entries(FILES)) {
    const groups = JSON.parse(readFileSync(`${suiteDir}${file}.json`, 'utf8')) as SuiteGroup[];
    for (const group of groups) {
      describe(`${file}: ${group.description}`, () => {
        const validate = ajv.compile({ ...group.schema, format });
        for (const t of group.tests) {
          const name = `${file}: ${t.description}`;
          const exception = EXCEPTIONS[name];
          if (exception) {
            used.add(name);
            it(`EXCEPTION ${t.description} — ${exception}`, () => expect(validate(t.data)).toBe(!t.valid));
          } else {
            it(t.description, () => expect(validate(t.data), JSON.stringify(t.data)).toBe(t.valid));
          }
        }
      });
    }
  }
  it('every listed exception matches a suite case', () => {
    expect([...used].sort()).toEqual(Object.keys(EXCEPTIONS).sort());
  });
});
