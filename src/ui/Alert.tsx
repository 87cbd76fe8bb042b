import type { ComponentPropsWithoutRef, ReactNode } from 'react';
import { IconClose, IconError, IconInfo, IconSuccess, IconWarning } from './icons';

export type AlertKind = 'error' | 'warning' | 'success' | 'info';

const ICONS = { error: IconError, warning: IconWarning, success: IconSuccess, info: IconInfo } as const;

export interface AlertProps extends Omit<ComponentPropsWithoutRef<'div'>, 'role'> {
  kind: AlertKind;
  children: ReactNode;
  /** 'alert' for what must interrupt (errors), 'status' for news, none inside a live region; 'group' for a named list (the error summary). */
  role?: 'alert' | 'status' | 'group';
  /** A close button (its accessible name is dismissLabel). */
  onDismiss?: () => void;
  dismissLabel?: string;
}

/** A message in the page flow: icon, colour and text, never colour alone. */
export function Alert({ kind, children, role, className, onDismiss, dismissLabel, ...div }: AlertProps) {
  const KindIcon = ICONS[kind];
  return (
    <div {...div} role={role} className={`fd-alert fd-alert--${kind}${className ? ` ${className}` : ''}`} data-kind={kind}>
      <KindIcon className="fd-alert__icon" />
      <div className="fd-alert__text">{children}</div>
      {onDismiss ? (
        <button type="button" className="fd-icon-button fd-alert__close" aria-label={dismissLabel} onClick={onDismiss}>
          <IconClose size={18} />
        </button>
      ) : null}
    </div>
  );
}
