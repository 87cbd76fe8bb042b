import type { ComponentType } from 'react';
import type { RegistryWidgetsType, WidgetProps } from '@rjsf/utils';
import { lazyPart, type SelfLabelledWidget } from '../src/engine';
import type vocabulary from './vocabulary.json';

type WidgetName = keyof (typeof vocabulary)['widgets'];

/**
 * Every custom widget, by the name screens use in "ui:widget". Each loads lazily, so a screen
 * pays only for the widgets it shows. rjsf's own widgets (text, password, email, checkbox,
 * select, radio, textarea, hidden ...) need no entry. The names are declared in widgets/vocabulary.json
 * (data the catalogue check reads); the check refuses any other name.
 */
type Loader = () => Promise<{ default: ComponentType<WidgetProps> }>;

const loaders = {
  otp: () => import('./otp/OtpWidget'),
  mfaMethod: () => import('./mfaMethod/MfaMethodWidget'),
  duo: () => import('./duo/DuoWidget'),
  webauthn: () => import('./webauthn/WebAuthnWidget'),
  qrCode: () => import('./qrCode/QrCodeWidget'),
  /** E.164 phone number (libphonenumber-js); API in widgets/phone/PhoneWidget.tsx. */
  phone: () => import('./phone/PhoneWidget'),
  /** Passkeys after sign-in (screens/passkeyOffer.json), the trusted browser at /mfa, recovery codes (docs/mfa.md). */
  passkeyCreate: () => import('./passkeyCreate/PasskeyCreateWidget'),
  trustDevice: () => import('./trustDevice/TrustDeviceWidget'),
  recoveryCodes: () => import('./recoveryCodes/RecoveryCodesWidget'),
} satisfies Record<WidgetName, Loader>;

/** Widgets that render their own label (a choice group's legend, or nothing when there is no choice). */
const selfLabelled: ReadonlySet<string> = new Set<WidgetName>(['mfaMethod']);

export const widgets: RegistryWidgetsType = Object.fromEntries(
  // Until its chunk has mounted the step is not ready (its submit is busy); a chunk that fails says so in place.
  Object.entries(loaders).map(([name, load]) => {
    const widget = lazyPart<WidgetProps>(name, load);
    const marker: SelfLabelledWidget = { ownsLabel: true };
    return [name, selfLabelled.has(name) ? Object.assign(widget, marker) : widget];
  }),
);

/**
 * Starts loading a widget's chunk ahead of its screen (the app's prefetch, src/app/prefetch.ts); an
 * unknown name (one of rjsf's own widgets) loads nothing. A failure is the caller's to swallow: the
 * widget's lazy part loads it again when it renders, and reports it in place.
 */
export function preloadWidget(name: string): Promise<unknown> {
  return Object.hasOwn(loaders, name) ? loaders[name as WidgetName]() : Promise.resolve(undefined);
}
