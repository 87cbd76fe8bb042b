// TypeScript, ES module (checked under nodenext and bundler resolution, against ajv 8.12's types).
import type { Plugin } from 'ajv';
import addValidators, {
  type ValidatorsOptions,
  type FormatName,
  type PasswordPolicyError,
  type Language,
  messageKeyFor,
  messageFor,
  validationTexts,
} from '@frontdoor/validators';
import { formats, urlWithSchemes, type FormatCheck } from '@frontdoor/validators/formats';
import { enUsValidation, type MessageKey, type ValidationTexts } from '@frontdoor/validators/messages';
import { texts as deDe } from '@frontdoor/validators/messages/de-de';

// The plugin is an ajv Plugin: addValidators fits `new Ajv()`, Ajv2019, Ajv2020 and Fastify's instance.
const plugin: Plugin<ValidatorsOptions> = addValidators;
const options: ValidatorsOptions = { formats: ['email', 'url'], keywords: ['notBlank'], urlSchemes: ['https'], language: 'de-de', inUse: async () => false };
const name: FormatName = 'secure-url';
const check: FormatCheck = formats[name];
const https: (s: string) => boolean = urlWithSchemes(['https']);
const key: MessageKey = messageKeyFor({ keyword: 'format', params: { format: 'url' } });
const error: PasswordPolicyError | undefined = undefined;
const text: string = enUsValidation.format.url;
const german: ValidationTexts = deDe;
const language: Language = 'ar';
const message: string = messageFor({ keyword: 'required', params: {} }, validationTexts[language]);
// @ts-expect-error: not a format of the plugin
const unknown: FormatName = 'date-time';
// @ts-expect-error: not a language of the package
const klingon: Language = 'tlh';
export const used = [plugin, options, check, https, key, error, text, german, message, unknown, klingon];
