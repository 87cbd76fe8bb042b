import type { ReactNode } from 'react';
import { IconEye, IconEyeOff } from './icons';

export interface PasswordToggleProps {
  /** The password input, rendered by the caller with type text or password as `shown` says. */
  children: ReactNode;
  shown: boolean;
  onToggle(): void;
  /** The input's id (aria-controls). */
  controls: string;
  showLabel: string;
  hideLabel: string;
  disabled?: boolean;
}

/**
 * A password input with an eye button inside its end: the button's name says what it will do
 * ('Show password' / 'Hide password'), without aria-pressed, which would announce a contradictory
 * state. The input keeps its value, autocomplete token and paste.
 */
export function PasswordToggle({ children, shown, onToggle, controls, showLabel, hideLabel, disabled }: PasswordToggleProps) {
  return (
    <div className="fd-password">
      {children}
      <button
        type="button"
        className="fd-icon-button fd-password__toggle"
        aria-controls={controls}
        aria-label={shown ? hideLabel : showLabel}
        disabled={disabled}
        onClick={onToggle}
      >
        {shown ? <IconEyeOff /> : <IconEye />}
      </button>
    </div>
  );
}
