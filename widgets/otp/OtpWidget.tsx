import type { ChangeEvent } from 'react';
import type { WidgetProps } from '@rjsf/utils';
import { useFieldInput } from '../../src/engine';
import { codeDigits } from './code-digits';

/**
 * A one-time code: digits only, the browser's one-time-code autofill, paste with separators allowed;
 * left to right in every language (dir="ltr"), so a code reads as it was sent.
 */
export default function OtpWidget(props: WidgetProps) {
  const { options } = props;
  const length = typeof options.length === 'number' ? options.length : 6;
  const typed = useFieldInput(props);
  const handleChange = (event: ChangeEvent<HTMLInputElement>) => {
    const digits = codeDigits(event.target.value, length);
    typed.change(digits === '' ? options.emptyValue : digits);
  };
  return (
    <input
      {...typed.attributes}
      className="fd-input fd-input--otp"
      dir="ltr"
      type="text"
      inputMode="numeric"
      autoComplete="one-time-code"
      pattern={`[0-9]{${length}}`}
      value={typeof typed.shown === 'string' ? typed.shown : ''}
      onChange={handleChange}
    />
  );
}
