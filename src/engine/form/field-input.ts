import type { FocusEvent } from 'react';
import { ariaDescribedByIds, type WidgetProps } from '@rjsf/utils';
import { useTypedBeforePart } from './early-input';
import { useTypedValue, type TypedValue } from './typing';

/**
 * What every text-like input of a form shares (the base template, OTP, phone): its id and name, state
 * attributes, accessibility (aria-required, aria-invalid, aria-describedby to its errors and help),
 * focus and blur — the blur hands a value still being typed to rjsf first, since its validation reads
 * rjsf's data — and the typed value itself (typing.tsx).
 */
export function useFieldInput(props: WidgetProps): TypedValue<unknown> & { attributes: FieldInputAttributes } {
  const { id, name, htmlName, value, readonly, disabled, autofocus, required, rawErrors, onChange, onBlur, onFocus } = props;
  const typed = useTypedValue<unknown>(name, value, onChange);
  // As if typed here: the value is the field's typed one until rjsf has it, and a submit hands it
  // over again (typing.tsx), so a hand-over that an update of the form in the same moment overtook is not lost.
  useTypedBeforePart(id, value, typed.change);
  const attributes: FieldInputAttributes = {
    id,
    name: htmlName || id,
    readOnly: readonly,
    disabled,
    autoFocus: autofocus,
    'aria-required': required || undefined,
    'aria-invalid': (rawErrors?.length ?? 0) > 0 || undefined,
    'aria-describedby': ariaDescribedByIds(id),
    onBlur: (event) => {
      typed.flush();
      onBlur(id, event.target.value);
    },
    onFocus: (event) => onFocus(id, event.target.value),
  };
  return { ...typed, attributes };
}

export interface FieldInputAttributes {
  id: string;
  name: string;
  readOnly?: boolean;
  disabled?: boolean;
  autoFocus?: boolean;
  'aria-required'?: true;
  'aria-invalid'?: true;
  'aria-describedby': string;
  onBlur(event: FocusEvent<HTMLInputElement>): void;
  onFocus(event: FocusEvent<HTMLInputElement>): void;
}
