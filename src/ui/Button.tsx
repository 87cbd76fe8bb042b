import type { ComponentPropsWithoutRef, MouseEvent } from 'react';

export type ButtonVariant = 'primary' | 'secondary' | 'tertiary' | 'link';

/** The classes of a button look, also for a link that leads on like a button. */
export function buttonClass(variant: ButtonVariant, block = false, extra?: string): string {
  return `fd-button fd-button--${variant}${block ? ' fd-button--block' : ''}${extra ? ` ${extra}` : ''}`;
}

export interface ButtonProps extends ComponentPropsWithoutRef<'button'> {
  variant?: ButtonVariant;
  /** Full width (the main action of a card). */
  block?: boolean;
  /**
   * Waiting for the answer: a spinner, aria-busy, and clicks do nothing. The button stays focusable
   * (aria-disabled, not disabled), so keyboard focus is not lost while the page waits.
   */
  busy?: boolean;
}

/** Primary, secondary, tertiary and link buttons; `disabled` gets a look of its own (flat, dashed). */
export function Button({ variant = 'secondary', block, busy = false, className, children, onClick, type = 'button', ...button }: ButtonProps) {
  return (
    <button
      {...button}
      type={type}
      className={buttonClass(variant, block, className)}
      aria-busy={busy || undefined}
      aria-disabled={busy || button['aria-disabled'] || undefined}
      data-busy={busy || undefined}
      onClick={(event: MouseEvent<HTMLButtonElement>) => {
        if (busy) {
          event.preventDefault();
          return;
        }
        onClick?.(event);
      }}
    >
      {busy ? <Spinner /> : null}
      {children}
    </button>
  );
}

/** A small spinning ring in the current text colour (still under prefers-reduced-motion). */
export function Spinner() {
  return <span className="fd-spinner" aria-hidden="true" />;
}
