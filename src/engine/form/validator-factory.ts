import { createContext } from 'react';
import type { RJSFSchema, ValidatorType } from '@rjsf/utils';
import type { PrecompiledValidators } from '../types';

/**
 * How a form step gets its rjsf validator. The app uses the build's precompiled validators (no
 * schema is compiled in the browser, no eval), loaded after the form is on screen
 * (./deferred-validation.ts). A host that edits schemas live — the dev-only screen studio — provides
 * a factory that compiles at run time instead; visitors never load it.
 */
export type ValidatorFactory = (validators: PrecompiledValidators, schema: RJSFSchema) => ValidatorType;

/** null: the app's precompiled validators. */
export const ValidatorFactoryContext = createContext<ValidatorFactory | null>(null);
