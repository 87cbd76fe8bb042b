-- 040: passkeys, recovery codes and trusted browsers (issue 28). docs/mfa.md describes them.

-- WebAuthn credentials that sign in alone (discoverable where the authenticator can, user
-- verification required). The security keys of MFA stay in mfa_enrolments; both are accepted by
-- passkey sign-in. A counter that goes backwards marks the credential as a suspected clone: refused
-- from then on.
CREATE TABLE passkeys (
  id                 INTEGER PRIMARY KEY,
  user_id            INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  credential_id      TEXT NOT NULL UNIQUE,          -- base64url
  public_key         TEXT NOT NULL,                 -- COSE key, base64url
  sign_count         INTEGER NOT NULL DEFAULT 0,
  aaguid             TEXT NOT NULL,                 -- the authenticator model (all zeros: not told)
  device_type        TEXT NOT NULL CHECK (device_type IN ('singleDevice', 'multiDevice')),
  backed_up          INTEGER NOT NULL DEFAULT 0,    -- backup state (BS flag) at the last use
  transports         TEXT,                          -- JSON array of the authenticator's transports
  discoverable       INTEGER,                       -- credProps.rk: 1, 0, or NULL when not told
  name               TEXT,
  created_at         INTEGER NOT NULL,
  last_used_at       INTEGER,
  clone_suspected_at INTEGER
);
CREATE INDEX passkeys_user ON passkeys(user_id);

-- The enrolment offer after sign-in: "Not now" (ask again after ask_again_at) or "Don't ask again"
-- (ask_again_at NULL), per account.
CREATE TABLE passkey_offers (
  user_id      INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  declined_at  INTEGER NOT NULL,
  ask_again_at INTEGER
);

-- Recovery codes: 10 per account, each single use, stored as an HMAC-SHA256 (hex) keyed by the
-- server secret. A new set replaces the old one.
CREATE TABLE recovery_codes (
  id         INTEGER PRIMARY KEY,
  user_id    INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  code_hash  TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  used_at    INTEGER
);
CREATE INDEX recovery_codes_user ON recovery_codes(user_id, code_hash);

-- The right to be shown a new set of codes once: earned by setting up a first factor or by signing
-- in with a recovery code, bound to that browser (sha256 of its nonce cookie), short-lived.
CREATE TABLE recovery_code_grants (
  id           INTEGER PRIMARY KEY,
  user_id      INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  browser_hash TEXT NOT NULL,
  created_at   INTEGER NOT NULL,
  expires_at   INTEGER NOT NULL,
  used_at      INTEGER
);
CREATE INDEX recovery_code_grants_user ON recovery_code_grants(user_id);

-- Browsers where the second factor is not asked again: the signed __Host- cookie names the row
-- (sha256 of its device secret). A password change, an MFA change or "sign out everywhere" revokes
-- every row of the account.
CREATE TABLE trusted_devices (
  id          INTEGER PRIMARY KEY,
  device_hash TEXT NOT NULL UNIQUE,
  user_id     INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at  INTEGER NOT NULL,
  expires_at  INTEGER NOT NULL,
  revoked_at  INTEGER,
  user_agent  TEXT
);
CREATE INDEX trusted_devices_user ON trusted_devices(user_id);

-- Settings of a tenant (an organisation); no row: the defaults.
CREATE TABLE tenant_settings (
  organization_id     INTEGER PRIMARY KEY,
  trusted_device_days INTEGER NOT NULL DEFAULT 30 CHECK (trusted_device_days BETWEEN 0 AND 365),
  updated_at          INTEGER NOT NULL
);

-- The visitor ticked "Don't ask again on this device" at /mfa for this sign-in.
ALTER TABLE login_tokens ADD COLUMN trust_device INTEGER NOT NULL DEFAULT 0;
