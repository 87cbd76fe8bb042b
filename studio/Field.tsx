import type { ReactNode } from 'react';

/**
 * A labelled control of the studio's own forms, in the product's field style (src/ui's fd-field):
 * the label names the control by its id, and the help line, if any, describes it (`${id}-help`).
 */
export function Field({ id, label, help, className, children }: { id: string; label: string; help?: string; className?: string; children: ReactNode }) {
  return (
    <div className={className ? `fd-field ${className}` : 'fd-field'}>
      <label className="fd-field__label" htmlFor={id}>
        {label}
      </label>
      {children}
      {help ? (
        <small id={`${id}-help`} className="fd-field__help">
          {help}
        </small>
      ) : null}
    </div>
  );
}
