import type { ChangeEvent, ReactNode } from 'react';

export interface CompactSelectProps {
  id: string;
  /** The accessible name; shown as the icon, spoken as text. */
  label: string;
  icon: ReactNode;
  value: string;
  onChange(event: ChangeEvent<HTMLSelectElement>): void;
  busy?: boolean;
  children: ReactNode;
}

/** A small pill-shaped native select with an icon (the language and theme pickers of the header). */
export function CompactSelect({ id, label, icon, value, onChange, busy, children }: CompactSelectProps) {
  return (
    <span className="fd-picker">
      <label htmlFor={id} className="fd-visually-hidden">
        {label}
      </label>
      <span className="fd-picker__icon">{icon}</span>
      <select id={id} className="fd-picker__select" value={value} aria-busy={busy || undefined} onChange={onChange}>
        {children}
      </select>
    </span>
  );
}
