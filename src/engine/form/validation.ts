import { createPrecompiledValidator } from '@rjsf/validator-ajv8';
import { messageKeyFor } from '@frontdoor/validators/messages';
import type { ValidatorFactory } from './validator-factory';

/**
 * What validating a form takes beyond its precompiled validator: rjsf's validator around it and the
 * shared validators' message keys. A chunk of its own, loaded once a form is on screen (./deferred-validation.ts):
 * a form is validated on submit and then on blur, never before the visitor acts, so none of this is
 * part of the first load.
 */
export const precompiledValidator: ValidatorFactory = (validators, schema) =>
  createPrecompiledValidator(validators as unknown as Parameters<typeof createPrecompiledValidator>[0], schema);

export { messageKeyFor };
