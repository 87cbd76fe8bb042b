import type { ChangeEvent } from 'react';
import { ariaDescribedByIds, type WidgetProps } from '@rjsf/utils';
import { useTypedValue } from '../../src/engine/form/typing';

/** A one-time code: digits only, the browser's one-time-code autofill, paste allowed. */
export default function OtpWidget({ id, name, htmlName, value, required, disabled, readonly, autofocus, onChange, onBlur, onFocus, rawErrors, options }: WidgetProps) {
  const length = typeof options.length === 'number' ? options.length : 6;
  const typed = useTypedValue<unknown>(name, value, onChange);
  const handleChange = (event: ChangeEvent<HTMLInputElement>) => {
    const digits = event.target.value.replace(/\D/g, '').slice(0, length);
    typed.change(digits === '' ? options.emptyValue : digits);
  };
  return (
    <input
      id={id}
      name={htmlName || id}
      className="fd-input fd-input--otp"
      type="text"
      inputMode="numeric"
      autoComplete="one-time-code"
      pattern={`[0-9]{${length}}`}
      maxLength={length}
      value={typeof typed.shown === 'string' ? typed.shown : ''}
      disabled={disabled}
      readOnly={readonly}
      autoFocus={autofocus}
      aria-required={required || undefined}
      aria-invalid={(rawErrors?.length ?? 0) > 0 || undefined}
      aria-describedby={ariaDescribedByIds(id)}
      onChange={handleChange}
      onBlur={(e) => {
        typed.flush();
        onBlur(id, e.target.value);
      }}
      onFocus={(e) => onFocus(id, e.target.value)}
    />
  );
}
