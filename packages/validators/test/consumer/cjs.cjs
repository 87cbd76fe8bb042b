// A consumer's CommonJS module.
const Ajv = require('ajv');
const validators = require('@frontdoor/validators');
const { formats } = require('@frontdoor/validators/formats');
const { messageKeyFor } = require('@frontdoor/validators/messages');
const { texts: frFr } = require('@frontdoor/validators/messages/fr-fr');
const { ipRange } = require('@frontdoor/validators/formats/ipRange');

const ajv = validators.addValidators(new Ajv({ allErrors: true }), { urlSchemes: ['https'], language: 'fr-FR' });
const validate = ajv.compile({
  type: 'object',
  properties: { host: { type: 'string', format: 'hostname' }, site: { type: 'string', format: 'url' }, port: { integerRange: [1, 65535] } },
});
const good = validate({ host: 'example.com', site: 'https://example.com', port: 443 });
const bad = validate({ host: '1.2.3.4', site: 'http://example.com', port: 0 });
console.log(
  JSON.stringify({
    good,
    bad,
    keys: validate.errors.map((e) => messageKeyFor(e).key).sort(),
    french: validate.errors.find((e) => e.keyword === 'integerRange').message === frFr.integerRange.replace('{{min}}', '1').replace('{{max}}', '65535'),
    sameDefault: validators.default === validators.addValidators,
    sameFunctions: formats.uri === validators.uri,
    oneByOne: ipRange === formats['ip-range'],
  }),
);
