import type { ChangeEvent, FocusEvent, KeyboardEvent, PointerEvent, ReactNode } from 'react';

export interface CompactSelectProps {
  id: string;
  /** The accessible name; shown as the icon, spoken as text. */
  label: string;
  icon: ReactNode;
  value: string;
  onChange(event: ChangeEvent<HTMLSelectElement>): void;
  busy?: boolean;
  /** Keys, pointer and leaving, for a picker that tells a choice made from the keys from one made with the pointer. */
  onKeyDown?(event: KeyboardEvent<HTMLSelectElement>): void;
  onPointerDown?(event: PointerEvent<HTMLSelectElement>): void;
  onBlur?(event: FocusEvent<HTMLSelectElement>): void;
  children: ReactNode;
}

/** A small pill-shaped native select with an icon (the language and theme pickers of the header). */
export function CompactSelect({ id, label, icon, value, onChange, busy, onKeyDown, onPointerDown, onBlur, children }: CompactSelectProps) {
  return (
    <span className="fd-picker">
      <label htmlFor={id} className="fd-visually-hidden">
        {label}
      </label>
      <span className="fd-picker__icon">{icon}</span>
      <select
        id={id}
        className="fd-picker__select"
        value={value}
        aria-busy={busy || undefined}
        onChange={onChange}
        onKeyDown={onKeyDown}
        onPointerDown={onPointerDown}
        onBlur={onBlur}
      >
        {children}
      </select>
    </span>
  );
}
