import type { RJSFValidationError } from '@rjsf/utils';
import type { messageKeyFor as MessageKeyFor } from '@frontdoor/validators/messages';
import type { PreparedUi, Translate } from './ui-schema';

/** The top-level field an rjsf error belongs to ('.email' or '.email.x' -> 'email'). */
export function fieldOf(error: RJSFValidationError): string | undefined {
  const property = error.property ?? '';
  const match = /^\.?([^.[\]]+)/.exec(property);
  return match?.[1];
}

/** The failing fields and keywords of a submit's errors, each pair once (the funnel's field errors: never a value). */
export function invalidFields(errors: readonly RJSFValidationError[]): Array<{ field: string; keyword: string }> {
  const seen = new Set<string>();
  return errors.flatMap((error) => {
    const field = fieldOf(error) ?? 'form';
    const keyword = error.name ?? 'invalid';
    const id = `${field} ${keyword}`;
    if (seen.has(id)) return [];
    seen.add(id);
    return [{ field, keyword }];
  });
}

/**
 * Turns raw validation errors into translated ones: drops errors of hidden fields, uses the
 * field's ui:messages override for the keyword when there is one, else the shared validators'
 * message key for the keyword.
 */
export function makeTransformErrors(ui: PreparedUi, t: Translate, keyFor: () => typeof MessageKeyFor | undefined) {
  return (errors: RJSFValidationError[]): RJSFValidationError[] =>
    errors
      .filter((error) => {
        const field = fieldOf(error);
        return field === undefined || !ui.hidden.has(field);
      })
      .map((error) => {
        const field = fieldOf(error);
        const keyword = error.name ?? '';
        const override = field !== undefined ? ui.messages[field]?.[keyword] : undefined;
        // The validation chunk has loaded when there are errors to translate (./deferred-validation.ts).
        const { key, values } = override ? { key: override, values: {} } : (keyFor()?.(error) ?? { key: 'validation.invalid', values: {} });
        const message = t(key, values);
        return { ...error, message, stack: `${error.property ?? ''} ${message}`.trim() };
      });
}
