import { createContext } from 'react';
import type { RJSFSchema, ValidatorType } from '@rjsf/utils';
import { createPrecompiledValidator } from '@rjsf/validator-ajv8';
import type { PrecompiledValidators } from '../types';

/**
 * How a form step gets its rjsf validator. The app uses the build's precompiled validators (no
 * schema is compiled in the browser, no eval). A host that edits schemas live — the dev-only
 * screen studio — provides a factory that compiles at run time instead; visitors never load it.
 */
export type ValidatorFactory = (validators: PrecompiledValidators, schema: RJSFSchema) => ValidatorType;

export const precompiledValidator: ValidatorFactory = (validators, schema) =>
  createPrecompiledValidator(validators as unknown as Parameters<typeof createPrecompiledValidator>[0], schema);

export const ValidatorFactoryContext = createContext<ValidatorFactory>(precompiledValidator);
