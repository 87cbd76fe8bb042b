import type { RJSFSchema, ValidatorType } from '@rjsf/utils';
import type { PrecompiledValidators, StepValidators } from '../types';
import type { ValidatorFactory } from './validator-factory';

/**
 * A form's validator that arrives after the form: rjsf holds this one from the first render, and it
 * hands every call to the real validator once its chunks have loaded (./validation.ts, and the step's
 * precompiled validator when the screen module loads it lazily). The form validates only when the
 * visitor acts — a submit, then blurs, a probe's check — and FormStep waits for `ready()` before
 * each: the first load carries none of it, and nothing is validated against a missing validator.
 */
type Validation = typeof import('./validation');

let validation: Promise<Validation> | undefined;
/** The validation chunk, loaded once. */
export const loadValidation = (): Promise<Validation> => (validation ??= import('./validation'));

export class DeferredValidator implements ValidatorType {
  private target?: ValidatorType;
  private readonly loading: Promise<void>;
  /** The shared validators' message keys, once loaded (FormStep's error texts). */
  messageKeyFor?: Validation['messageKeyFor'];

  constructor(validators: StepValidators, schema: RJSFSchema, factory: ValidatorFactory | null, textsReady?: () => Promise<void>) {
    this.loading = (async () => {
      const [module, precompiled] = await Promise.all([
        loadValidation(),
        typeof validators === 'function' ? validators() : Promise.resolve<PrecompiledValidators>(validators),
        // The validation messages' texts (the host's: a prerendered page starts with its first texts only).
        textsReady?.(),
      ]);
      this.target = (factory ?? module.precompiledValidator)(precompiled, schema);
      this.messageKeyFor = module.messageKeyFor;
    })();
    // A chunk that fails to load leaves the form waiting; the submit says so (FormStep).
    this.loading.catch(() => undefined);
  }

  /** Resolves once the real validator is there (rejects when its chunk could not load). */
  ready(): Promise<void> {
    return this.loading;
  }

  isReady(): boolean {
    return this.target !== undefined;
  }

  private real(): ValidatorType {
    if (!this.target) throw new Error('The form was validated before its validator loaded (FormStep waits for ready())');
    return this.target;
  }

  validateFormData(...args: Parameters<ValidatorType['validateFormData']>): ReturnType<ValidatorType['validateFormData']> {
    return this.real().validateFormData(...args);
  }

  isValid(...args: Parameters<ValidatorType['isValid']>): boolean {
    // rjsf asks while it renders only for conditional schemas (if, oneOf, anyOf, dependencies), whose
    // screens load their precompiled validator with the screen (scripts/generate.ts): here, not yet.
    return this.real().isValid(...args);
  }

  rawValidation<Result = unknown>(schema: RJSFSchema, formData?: unknown): { errors?: Result[]; validationError?: Error } {
    return this.real().rawValidation<Result>(schema, formData);
  }

  reset(): void {
    this.target?.reset?.();
  }
}
