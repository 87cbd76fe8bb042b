import type { ChangeEvent, ReactNode } from 'react';
import { ariaDescribedByIds, type WidgetProps } from '@rjsf/utils';
import { Icon } from '../../src/ui';
import { ChoiceCards } from '../../src/ui/ChoiceCards';
import { screenApiOf } from '../screen-api';

/** An icon per MFA method (SPEC §3 MFA types); a method without one shows none. */
const METHOD_ICONS: Record<string, ReactNode> = {
  TOTP: (
    <Icon d="M8.5 2.5h7A2.5 2.5 0 0 1 18 5v14a2.5 2.5 0 0 1-2.5 2.5h-7A2.5 2.5 0 0 1 6 19V5a2.5 2.5 0 0 1 2.5-2.5Zm2 16h3m-4-9h.01m2.49 0h.01m2.49 0h.01" />
  ),
  SMSOTP: <Icon d="M20 15a2 2 0 0 1-2 2H8l-4 3.5V6a2 2 0 0 1 2-2h12a2 2 0 0 1 2 2ZM8.5 10.5h.01m3.49 0h.01m3.49 0h.01" />,
  U2F_TOKEN: <Icon d="M11.5 15.5a4 4 0 1 1-8 0 4 4 0 0 1 8 0Zm-1-3 9-9M16 7l3 3m-5-1 2 2" />,
  DUO: <Icon d="M12 3 4.5 6v5.5c0 4.5 3.2 8.2 7.5 9.5 4.3-1.3 7.5-5 7.5-9.5V6ZM9 12l2 2 4-4" />,
};

/**
 * The MFA method chooser: a radio group of method cards (icon and title from ui:enumNames) over the
 * field's enum, limited to the methods listed in a context value (ui:options.availableFrom, e.g. the
 * state's available_mfa). With a single method there is nothing to choose and nothing is shown (the
 * step's text names the method). What a change does (ask the server to switch, restore on failure)
 * is the screen's probe on this field. It renders its own legend (ownsLabel in widgets/registry.ts).
 * With ui:options.control "select" it is a labelled select instead, always shown (the Verify MFA
 * modal: SPEC §2 'a method selector labelled ...', where a dialog has no room for cards).
 */
export default function MfaMethodWidget({
  id,
  htmlName,
  label,
  value,
  required,
  disabled,
  readonly,
  autofocus,
  onChange,
  onBlur,
  onFocus,
  options,
  rawErrors,
  registry,
}: WidgetProps) {
  const api = screenApiOf(registry);
  const availableFrom = typeof options.availableFrom === 'string' ? options.availableFrom : undefined;
  const available = availableFrom ? api?.ctx[availableFrom] : undefined;
  const allowed = Array.isArray(available) ? new Set(available.filter((v): v is string => typeof v === 'string')) : undefined;
  const choices = (options.enumOptions ?? []).filter((option) => !allowed || allowed.has(String(option.value)) || option.value === value);
  if (options.control === 'select') {
    return (
      <div className="fd-field__control">
        <label htmlFor={id} className="fd-field__label">
          {label}
        </label>
        <select
          id={id}
          name={htmlName || id}
          className="fd-input fd-select"
          value={typeof value === 'string' ? value : ''}
          required={required}
          disabled={disabled || readonly || api?.busy}
          // Only where the screen asks for it (ui:autofocus), as rjsf's own widgets do.
          // eslint-disable-next-line jsx-a11y/no-autofocus
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
      </div>
    );
  }
  if (choices.length < 2) return null;
  return (
    <ChoiceCards
      id={id}
      name={htmlName || id}
      legend={label}
      value={typeof value === 'string' ? value : undefined}
      choices={choices.map((option) => ({ value: String(option.value), label: option.label, icon: METHOD_ICONS[String(option.value)] }))}
      disabled={disabled || readonly}
      busy={api?.busy}
      autoFocus={autofocus}
      describedBy={ariaDescribedByIds(id)}
      onChange={(next) => onChange(next)}
      onBlur={(event) => onBlur(id, event.target.value)}
      onFocus={(event) => onFocus(id, event.target.value)}
    />
  );
}
