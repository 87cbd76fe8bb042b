import { customizeValidator } from '@rjsf/validator-ajv8';
import type { ValidatorFactory } from '../src/engine';
import { addValidators } from '@frontdoor/validators';

/**
 * The studio compiles the schema being edited at run time (ajv, hence the studio page's
 * 'unsafe-eval'), with the same validators plugin the build uses for the precompiled ones, so
 * errors appear as they would for visitors. One validator serves every schema (ajv caches).
 */
const validator = customizeValidator({
  ajvFormatOptions: false,
  extenderFn: (ajv) => addValidators(ajv),
});

export const runtimeValidator: ValidatorFactory = () => validator;
