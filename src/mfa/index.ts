/** The Verify MFA modal, usable outside the login page (docs/mfa.md). */
export { VerifyMfaModal, MFA_METHODS, returnToFromLocation } from './VerifyMfaModal';
export type { MfaMethod, MfaVerification, VerifyMfaModalProps } from './VerifyMfaModal';
