import type { ChangeEvent } from 'react';
import { ariaDescribedByIds, type WidgetProps } from '@rjsf/utils';
import { screenApiOf } from '../screen-api';

/**
 * The MFA method chooser: a select over the field's enum (titles from ui:enumNames) limited to the
 * methods listed in a context value (ui:options.availableFrom, e.g. the state's available_mfa).
 * What a change does (ask the server to switch, restore on failure) is the screen's probe on this field.
 */
export default function MfaMethodWidget({ id, htmlName, value, required, disabled, readonly, autofocus, onChange, onBlur, onFocus, options, rawErrors, registry }: WidgetProps) {
  const api = screenApiOf(registry);
  const availableFrom = typeof options.availableFrom === 'string' ? options.availableFrom : undefined;
  const available = availableFrom ? api?.ctx[availableFrom] : undefined;
  const allowed = Array.isArray(available) ? new Set(available.filter((v): v is string => typeof v === 'string')) : undefined;
  const choices = (options.enumOptions ?? []).filter((option) => !allowed || allowed.has(String(option.value)) || option.value === value);
  return (
    <select
      id={id}
      name={htmlName || id}
      className="fd-input fd-select"
      value={typeof value === 'string' ? value : ''}
      required={required}
      disabled={disabled || readonly || api?.busy}
      autoFocus={autofocus}
      aria-invalid={(rawErrors?.length ?? 0) > 0 || undefined}
      aria-describedby={ariaDescribedByIds(id)}
      onChange={(event: ChangeEvent<HTMLSelectElement>) => onChange(event.target.value)}
      onBlur={(event) => onBlur(id, event.target.value)}
      onFocus={(event) => onFocus(id, event.target.value)}
    >
      {choices.map((option) => (
        <option key={String(option.value)} value={String(option.value)}>
          {option.label}
        </option>
      ))}
    </select>
  );
}
