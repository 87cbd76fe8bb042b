// A consumer's ES module: the package next to its own ajv, as other teams use it.
import Ajv from 'ajv';
import addValidators, { addValidators as named, formats, messageKeyFor } from '@frontdoor/validators';
import * as formatsModule from '@frontdoor/validators/formats';
import { email } from '@frontdoor/validators/formats/email';
import { enUsValidation } from '@frontdoor/validators/messages';

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
console.log(
  JSON.stringify({
    ajv: Ajv.name,
    good,
    bad,
    keys: validate.errors.map((e) => messageKeyFor(e).key).sort(),
    sameDefault: named === addValidators,
    sameFunctions: formats.email === formatsModule.formats.email,
    oneByOne: email === formats.email,
    text: enUsValidation.format.url,
  }),
);
