-- 004: hardening (issue 15; port of ../004_hardening.sql). Counters shared by every instance, secrets
-- shared by demo instances, one live text-reset code per account with an attempt count, per-session MFA
-- attempts, and the public base URL of each branded host (links in emails never come from request headers).

-- Fixed-window counters (failed sign-ins, wrong codes, texts sent, per-address limits), updated
-- atomically in one statement or transaction so that several instances agree.
CREATE TABLE counters (
  scope        TEXT NOT NULL,
  key          TEXT NOT NULL,
  window_start BIGINT NOT NULL,
  count        INTEGER NOT NULL,
  expires_at   BIGINT NOT NULL,
  PRIMARY KEY (scope, key)
);

-- Demo mode only: secrets generated once and shared by every instance on this database. Outside
-- demo mode the secrets come from the environment and this table stays empty.
CREATE TABLE server_secrets (
  name       TEXT PRIMARY KEY,
  value      TEXT NOT NULL,
  created_at BIGINT NOT NULL
);

-- Wrong tries against a code (text-reset security codes die after 5).
ALTER TABLE verification_codes ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
CREATE INDEX verification_codes_user ON verification_codes(user_id, purpose);

-- Wrong codes typed into the Verify MFA modal during this session.
ALTER TABLE sessions ADD COLUMN mfa_failures INTEGER NOT NULL DEFAULT 0;

-- Public base URL of a branded host ('{PORT}' is replaced by the server's port), for links in emails.
ALTER TABLE branding ADD COLUMN public_url TEXT;

-- Replaced by counters (scope 'login').
DROP TABLE login_failures;
