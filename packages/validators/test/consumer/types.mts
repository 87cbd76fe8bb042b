// TypeScript, ES module (checked under nodenext and bundler resolution, against ajv 8.12's types).
import type { Plugin } from 'ajv';
import addValidators, { type ValidatorsOptions, type FormatName, type PasswordPolicyError, messageKeyFor } from '@frontdoor/validators';
import { formats, urlWithSchemes, type FormatCheck } from '@frontdoor/validators/formats';
import { enUsValidation, type MessageKey } from '@frontdoor/validators/messages';

// The plugin is an ajv Plugin: addValidators fits `new Ajv()`, Ajv2019, Ajv2020 and Fastify's instance.
const plugin: Plugin<ValidatorsOptions> = addValidators;
const options: ValidatorsOptions = { formats: ['email', 'url'], keywords: ['notBlank'], urlSchemes: ['https'] };
const name: FormatName = 'secure-url';
const check: FormatCheck = formats[name];
const https: (s: string) => boolean = urlWithSchemes(['https']);
const key: MessageKey = messageKeyFor({ keyword: 'format', params: { format: 'url' } });
const error: PasswordPolicyError | undefined = undefined;
const text: string = enUsValidation.format.url;
// @ts-expect-error: not a format of the plugin
const unknown: FormatName = 'date-time';
export const used = [plugin, options, check, https, key, error, text, unknown];
