/**
 * Presentational components shared by the engine's templates and blocks, the widgets and the page
 * frame: pure React and CSS (ui.css), no import from src/engine, src/app or widgets; every text comes
 * in as a prop or child (already translated). docs/design.md describes them.
 *
 * This index holds what the first load needs. Components only lazily loaded widgets use are imported
 * from their own files (ChoiceCards.tsx, CopyButton.tsx): through this index they would land in the
 * entry chunk, which imports it.
 */
export { Alert, type AlertKind } from './Alert';
export { Button, Spinner, buttonClass, type ButtonVariant } from './Button';
export { Card, CardBrand, CardHeading, ProductMark } from './Card';
export { CompactSelect } from './CompactSelect';
export { PasswordToggle } from './PasswordToggle';
export * from './icons';
