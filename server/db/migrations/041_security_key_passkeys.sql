-- 041: the security keys of MFA setup sign in as passkeys too (040): what their authenticator told at
-- registration is kept as for a passkey, and the same clone detection marks them. docs/mfa.md.

-- The authenticator model (AAGUID; all zeros: not told), 'singleDevice' or 'multiDevice', and the
-- backup state (BS flag) at the last use. NULL: not a security key, or enrolled before 041.
ALTER TABLE mfa_enrolments ADD COLUMN aaguid TEXT;
ALTER TABLE mfa_enrolments ADD COLUMN device_type TEXT;
ALTER TABLE mfa_enrolments ADD COLUMN backed_up INTEGER;
-- A counter that did not move forward: a suspected clone, refused from then on (passkey sign-in and
-- the second factor alike).
ALTER TABLE mfa_enrolments ADD COLUMN clone_suspected_at INTEGER;
