-- MFA: attempt limits per login/setup token, the authenticator-app secret offered during setup,
-- and the last TOTP time step accepted per enrolment (a code is good once). Port of ../002_mfa.sql.
ALTER TABLE login_tokens ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
ALTER TABLE login_tokens ADD COLUMN pending_secret TEXT;
ALTER TABLE mfa_enrolments ADD COLUMN totp_last_step BIGINT;
