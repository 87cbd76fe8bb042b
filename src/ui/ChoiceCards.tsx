import type { FocusEvent, ReactNode } from 'react';
import './ChoiceCards.css';

export interface Choice {
  value: string;
  label: ReactNode;
  icon?: ReactNode;
}

export interface ChoiceCardsProps {
  /** The group's id; each radio's id is `${id}-${index}`. */
  id: string;
  name: string;
  legend: ReactNode;
  choices: Choice[];
  value: string | undefined;
  onChange(value: string): void;
  /** Changes are ignored meanwhile (the radios stay focusable: focus is not lost). */
  busy?: boolean;
  disabled?: boolean;
  autoFocus?: boolean;
  describedBy?: string;
  onBlur?(event: FocusEvent<HTMLInputElement>): void;
  onFocus?(event: FocusEvent<HTMLInputElement>): void;
}

/**
 * A choice among a few options as a radio group of cards (icon, label, the radio's circle): a
 * fieldset whose legend names the group, native radios (arrow keys, one tab stop), 56 px rows.
 */
export function ChoiceCards({ id, name, legend, choices, value, onChange, busy, disabled, autoFocus, describedBy, onBlur, onFocus }: ChoiceCardsProps) {
  return (
    <fieldset className="fd-choices" id={id} aria-busy={busy || undefined}>
      <legend className="fd-field__label">{legend}</legend>
      <div className="fd-choices__list">
        {choices.map((choice, index) => (
          <label key={choice.value} className="fd-choice">
            {choice.icon ? <span className="fd-icon-tile fd-choice__icon">{choice.icon}</span> : null}
            <span className="fd-choice__label">{choice.label}</span>
            <input
              type="radio"
              className="fd-choice__radio"
              id={`${id}-${index}`}
              name={name}
              value={choice.value}
              checked={choice.value === value}
              disabled={disabled}
              // Only where the screen asks for it (ui:autofocus), as rjsf's own widgets do.
              // eslint-disable-next-line jsx-a11y/no-autofocus
              autoFocus={autoFocus && (value === undefined ? index === 0 : choice.value === value)}
              aria-describedby={describedBy}
              onChange={() => {
                if (!busy) onChange(choice.value);
              }}
              onBlur={onBlur}
              onFocus={onFocus}
            />
          </label>
        ))}
      </div>
    </fieldset>
  );
}
