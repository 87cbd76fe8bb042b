import { CONTENT_LOADERS, contentRegistry } from '../../widgets/content/registry';

/**
 * The app's content components (widgets/vocabulary.json's content names): widgets/' own and the
 * Verify MFA panel of src/mfa (the modal shown working on the landing page, docs/mfa.md). Composed
 * here, so widgets/ imports nothing of src/mfa (which builds on the widgets).
 */
export const contentComponent = contentRegistry({ ...CONTENT_LOADERS, verifyMfa: () => import('../mfa/VerifyMfaPanel') });
