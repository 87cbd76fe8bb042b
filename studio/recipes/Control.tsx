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
