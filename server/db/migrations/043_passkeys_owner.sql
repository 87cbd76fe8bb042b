-- 042: passkeys the owner controls (issue 35). docs/mfa.md "Passkeys the owner controls".

-- The browser that added a passkey (its User-Agent, cut to 300 characters, as sessions keep it): the
-- owner tells their passkeys apart by it (browser and system) when they are listed after a reset.
ALTER TABLE passkeys ADD COLUMN user_agent TEXT;

-- The passkey a session signed in with (NULL: a password, a security key, single sign-on). Removing a
-- passkey ends the sessions it made; "sign out everywhere" keeps the passkey of the session that asks.
ALTER TABLE sessions ADD COLUMN passkey_id INTEGER;
CREATE INDEX sessions_passkey ON sessions(passkey_id) WHERE passkey_id IS NOT NULL;

-- The right a password reset earns to list and remove the account's passkeys: bound to the browser
-- that made the reset (sha256 of its fd_bind nonce), 15 minutes, a few uses (services/passkeyReview.ts).
CREATE TABLE passkey_review_grants (
  id           INTEGER PRIMARY KEY,
  user_id      INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  browser_hash TEXT NOT NULL,
  created_at   INTEGER NOT NULL,
  expires_at   INTEGER NOT NULL,
  uses_left    INTEGER NOT NULL
);
CREATE INDEX passkey_review_grants_browser ON passkey_review_grants(browser_hash);

-- A credential id names one credential of one account: passkeys.credential_id is unique already (040);
-- the security keys of MFA get a unique index too, and the code refuses an id the other table holds
-- (db/passkeys.ts credentialIdInUse, in the registration's transaction). Rows that break the rule can
-- only come from a crafted registration: of each id the oldest row stays, the later copies go.
DELETE FROM mfa_enrolments WHERE credential_id IS NOT NULL AND EXISTS (
  SELECT 1 FROM mfa_enrolments older WHERE older.credential_id = mfa_enrolments.credential_id AND older.id < mfa_enrolments.id
);
DELETE FROM mfa_enrolments WHERE credential_id IS NOT NULL AND EXISTS (
  SELECT 1 FROM passkeys p WHERE p.credential_id = mfa_enrolments.credential_id AND p.created_at <= mfa_enrolments.created_at
);
DELETE FROM passkeys WHERE EXISTS (SELECT 1 FROM mfa_enrolments k WHERE k.credential_id = passkeys.credential_id);
CREATE UNIQUE INDEX mfa_enrolments_credential ON mfa_enrolments(credential_id) WHERE credential_id IS NOT NULL;
