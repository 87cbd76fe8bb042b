/**
 * i18n keys for validation errors and their en-us texts.
 *
 * Every keyword of this plugin puts its key in `error.message`; formats and
 * ajv's built-in keywords are mapped by `messageKeyFor`. A host app keeps its
 * texts under the namespace "validation." (the key `validation.format.ipv4`
 * is `format.ipv4` there); `enUsValidation` below holds the en-us texts.
 * No ajv import: `@frontdoor/validators/messages` is safe for a browser bundle.
 */

/** en-us texts of the "validation." namespace (SPEC §5, §8). */
export const enUsValidation = {
  required: 'Required',
  invalid: 'Invalid',
  email: 'Invalid email address',
  password:
    'Password must be between (8) and (72) characters and meet 3 of the following criteria: lower case letter, upper case letter, special character, number.',
  passwordsDoNotMatch: 'Passwords do not match',
  mfaCode: 'Invalid code',
  minLength: 'Field must contain at least {{minCount}} characters.',
  maxLength: 'Field exceeds the maximum character count of {{maxCount}}.',
  minItems: 'Select at least {{minCount}} items.',
  maxItems: 'Field exceeds the maximum item count of {{maxCount}}.',
  minimum: 'Value must be at least {{limit}}.',
  maximum: 'Value must be at most {{limit}}.',
  integerRange: 'Enter a whole number from {{min}} to {{max}}.',
  inUse: 'This value is already in use.',
  emailInUse: 'Email Address has already been registered.',
  format: {
    ipv4: 'Enter a valid IPv4 address.',
    ipv6: 'Enter a valid IPv6 address.',
    ip: 'Enter a valid IP address.',
    cidr: 'Enter a valid CIDR block, e.g. 10.0.0.0/8.',
    'ip-range': 'Enter a valid IP range (start-end, start not after end).',
    url: 'Enter a valid URL.',
    'secure-url': 'Enter a valid https:// URL.',
    uri: 'Enter a valid URI.',
    'windows-path': 'Enter a valid Windows path.',
    'mac-path': 'Enter a valid Mac path.',
    'unc-path': 'Enter a valid UNC path.',
    hostname: 'Enter a valid host name.',
    'dns-name': 'Enter a valid DNS name.',
    email: 'Invalid email address',
    alphanumeric: 'Use letters and numbers only.',
    'kb-number': 'Enter a valid KB number.',
    key32: 'Enter a 32-character key of letters and numbers.',
    oid: 'Enter a valid OID starting with a period.',
    'decimal-or-fraction': 'Enter a decimal number or a fraction.',
    'wildcard-item': 'Enter at least 3 characters with a wildcard (*) at the start or end.',
    'mfa-code': 'Invalid code',
  },
} as const;

export interface MessageKey {
  /** i18n key, e.g. "validation.required" */
  key: string;
  /** interpolation values for the key's text, e.g. { maxCount: 150 } */
  values: Record<string, unknown>;
}

/** An ajv ErrorObject, or an rjsf RJSFValidationError (which calls the keyword `name`). */
export interface ErrorLike {
  keyword?: string;
  name?: string;
  params?: unknown;
  message?: string;
}

const formatKeys = enUsValidation.format as Record<string, string>;

/** Keywords of this plugin; their error.message already is the key. */
const ownKeywords = new Set(['notBlank', 'passwordPolicy', 'integerRange', 'inUse', 'sameAs', 'limit']);

/** Maps any ajv error (built-in keywords included) to an i18n key and its values. */
export function messageKeyFor(error: ErrorLike): MessageKey {
  const keyword = error.keyword ?? error.name ?? '';
  const p = (error.params ?? {}) as Record<string, unknown>;
  switch (keyword) {
    case 'required':
      return { key: 'validation.required', values: { field: p.missingProperty } };
    case 'notBlank':
      return { key: 'validation.required', values: {} };
    case 'minLength':
      return { key: 'validation.minLength', values: { minCount: p.limit } };
    case 'maxLength':
    case 'limit':
      return { key: 'validation.maxLength', values: { maxCount: p.limit } };
    case 'minItems':
      return { key: 'validation.minItems', values: { minCount: p.limit } };
    case 'maxItems':
      return { key: 'validation.maxItems', values: { maxCount: p.limit } };
    case 'minimum':
    case 'exclusiveMinimum':
      return { key: 'validation.minimum', values: { limit: p.limit } };
    case 'maximum':
    case 'exclusiveMaximum':
      return { key: 'validation.maximum', values: { limit: p.limit } };
    case 'format': {
      const name = String(p.format ?? '');
      if (name === 'email') return { key: 'validation.email', values: {} };
      if (name === 'mfa-code') return { key: 'validation.mfaCode', values: {} };
      if (Object.prototype.hasOwnProperty.call(formatKeys, name)) {
        return { key: `validation.format.${name}`, values: {} };
      }
      return { key: 'validation.invalid', values: { format: name } };
    }
    case 'passwordPolicy':
      return { key: 'validation.password', values: {} };
    case 'sameAs':
      return { key: 'validation.passwordsDoNotMatch', values: { field: p.field } };
    case 'integerRange':
      return { key: 'validation.integerRange', values: { min: p.min, max: p.max } };
    case 'inUse':
      return { key: p.kind === 'email' ? 'validation.emailInUse' : 'validation.inUse', values: { kind: p.kind } };
    default:
      if (ownKeywords.has(keyword) && typeof error.message === 'string' && error.message.startsWith('validation.')) {
        return { key: error.message, values: p };
      }
      return { key: 'validation.invalid', values: {} };
  }
}
