// Standalone code (precompiled validators, no ajv compiler at run time) as an ES module and as
// CommonJS, each loaded from a file in this project so "@frontdoor/validators/formats" resolves
// as it would in the consumer's bundle or server.
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import Ajv from 'ajv';
import standaloneCode from 'ajv/dist/standalone/index.js';
import addValidators from '@frontdoor/validators';
import { setInUseChecker } from '@frontdoor/validators/formats';

const schema = {
  $id: 'check',
  type: 'object',
  properties: {
    host: { type: 'string', format: 'hostname' },
    range: { type: 'string', format: 'ip-range' },
    site: { type: 'string', format: 'url' },
    name: { type: 'string', notBlank: true, limit: 'name' },
    password: { type: 'string', passwordPolicy: true },
    confirm: { type: 'string', sameAs: 'password' },
    port: { type: 'integer', integerRange: [1, 65535] },
  },
};
const asyncSchema = { $id: 'register', $async: true, type: 'object', properties: { email: { type: 'string', format: 'email', inUse: 'email' } } };
const good = { host: 'example.com', range: '10.0.0.1-10.0.0.9', site: 'https://example.com', name: 'Ada', password: 'Passw0rd', confirm: 'Passw0rd', port: 80 };
const bad = { host: '-x', range: '10.0.0.9-10.0.0.1', site: 'data:text/html,x', name: 'n'.repeat(151), password: 'password', confirm: 'x', port: 0 };

function code(esm) {
  const ajv = addValidators(new Ajv({ code: { source: true, esm }, allErrors: true, schemas: [schema, asyncSchema] }));
  return standaloneCode(ajv, { check: 'check', register: 'register' });
}
// The plugin's parts load the formats module with require() in CommonJS and with a top-level
// `await import()` in an ES module. ajv's own runtime helpers (here ValidationError of $async
// schemas) are require() calls in its ES module output too, hence the createRequire line.
const esmCode = code(true);
writeFileSync('standalone-out.cjs', code(false));
writeFileSync('standalone-out.mjs', `import { createRequire } from "node:module";\nconst require = createRequire(import.meta.url);\n${esmCode}`);
const cjs = createRequire(import.meta.url)('./standalone-out.cjs');
const esm = await import(new URL('./standalone-out.mjs', import.meta.url).href);
const esmRequires = [...esmCode.matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1]);

setInUseChecker((value) => value === 'taken@example.com');
const out = {};
for (const [kind, mod] of [
  ['cjs', cjs],
  ['esm', esm],
]) {
  const taken = await mod.register({ email: 'taken@example.com' }).then(
    () => 'free',
    (e) => e.errors.map((x) => x.keyword).join(),
  );
  out[kind] = {
    good: mod.check(good),
    bad: mod.check(bad),
    errors: mod.check.errors.length,
    free: await mod.register({ email: 'free@example.com' }).then(() => 'free'),
    taken,
  };
}
out.esmRequires = [...new Set(esmRequires)];
console.log(JSON.stringify(out));
