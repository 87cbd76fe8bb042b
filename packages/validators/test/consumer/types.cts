// TypeScript, CommonJS (checked under nodenext and node10 resolution, against ajv 8.12's types).
import Ajv = require('ajv');
import validators = require('@frontdoor/validators');
import formatsModule = require('@frontdoor/validators/formats');
import messages = require('@frontdoor/validators/messages');

const ajv: Ajv.default = validators.addValidators(new Ajv.default(), { keywords: [] });
const same: typeof validators.default = validators.addValidators;
const ok: boolean = formatsModule.formats.hostname('example.com');
const key: string = messages.messageKeyFor({ keyword: 'required', params: { missingProperty: 'x' } }).key;
export = [ajv, same, ok, key];
