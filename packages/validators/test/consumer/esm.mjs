// A consumer's ES module: the package next to its own ajv, as other teams use it.
import Ajv from 'ajv';
import AjvJTD from 'ajv/dist/jtd.js';
import addValidators, { addValidators as named, formats, messageKeyFor, messageFor, languages, validationTexts } from '@frontdoor/validators';
import * as formatsModule from '@frontdoor/validators/formats';
import { email } from '@frontdoor/validators/formats/email';
import { enUsValidation } from '@frontdoor/validators/messages';
import { texts as he } from '@frontdoor/validators/messages/he';

const ajv = addValidators(new Ajv({ allErrors: true }));
const validate = ajv.compile({
  type: 'object',
  properties: {
    email: { type: 'string', format: 'email' },
    site: { type: 'string', format: 'url' },
    name: { type: 'string', notBlank: true, limit: 'name' },
    password: { type: 'string', passwordPolicy: true },
  },
});
const good = validate({ email: 'joe.bloggs@example.com', site: 'https://example.com', name: 'Joe', password: 'Passw0rd' });
const bad = validate({ email: 'joe..bloggs@example.com', site: 'javascript:alert(1)', name: '  ', password: 'password' });
const errors = validate.errors;

// inUse: each ajv instance its own checker.
const inUseSchema = { $async: true, type: 'string', inUse: 'email' };
const a = addValidators(new Ajv(), { inUse: (v) => v === 'a@example.com' }).compile(inUseSchema);
const b = addValidators(new Ajv(), { inUse: (v) => v === 'b@example.com' }).compile(inUseSchema);
const taken = (v, value) =>
  v(value).then(
    () => false,
    () => true,
  );

let jtd = '';
try {
  addValidators(new AjvJTD());
} catch (error) {
  jtd = error.message;
}

console.log(
  JSON.stringify({
    ajv: Ajv.name,
    good,
    bad,
    keys: errors.map((e) => messageKeyFor(e).key).sort(),
    messages: errors
      .map((e) => e.message)
      .filter((m) => !m.startsWith('must'))
      .sort(),
    hebrew:
      messageFor(
        errors.find((e) => e.keyword === 'passwordPolicy'),
        he,
      ) === validationTexts.he.password,
    languages: languages.length,
    sameDefault: named === addValidators,
    sameFunctions: formats.email === formatsModule.formats.email,
    oneByOne: email === formats.email,
    text: enUsValidation.format.url,
    inUse: [await taken(a, 'a@example.com'), await taken(a, 'b@example.com'), await taken(b, 'b@example.com')],
    jtd: /JTD mode/.test(jtd),
  }),
);
