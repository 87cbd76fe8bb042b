import { cloneElement, useId, type ReactElement } from 'react';

/**
 * A visible label tied to its control by id (not by wrapping: a wrapped select would add its chosen
 * option to its accessible name), so a person and a test find each control by its label alone.
 */
export function Control({ label, children, className }: { label: string; children: ReactElement<{ id?: string }>; className?: string }) {
  const id = useId();
  return (
    <div className={className ?? 'studio__control'}>
      <label htmlFor={id}>{label}</label>
      {cloneElement(children, { id })}
    </div>
  );
}

/** One option of a Choice: a plain string is its own label. */
export type ChoiceOption = string | { value: string; label: string };

interface ChoiceProps {
  label: string;
  value: string;
  options: readonly ChoiceOption[];
  onChange(value: string): void;
  testId?: string;
}

/** A labelled drop-down (Control's label) of options: the one shape of every choice the studio offers. */
export function Choice({ label, value, options, onChange, testId }: ChoiceProps) {
  return (
    <Control label={label}>
      <select value={value} onChange={(e) => onChange(e.target.value)} data-testid={testId}>
        {options.map((option, i) => {
          const { value: own, label: text } = typeof option === 'string' ? { value: option, label: option } : option;
          return (
            <option key={`${own}-${i}`} value={own}>
              {text}
            </option>
          );
        })}
      </select>
    </Control>
  );
}
