-- 001: the initial data model of the reference server.
-- Times are Unix epoch milliseconds (INTEGER). Secrets/tokens are stored as sha256 hex, never in clear.

CREATE TABLE users (
  id                    INTEGER PRIMARY KEY,
  uid                   TEXT NOT NULL UNIQUE,
  email                 TEXT NOT NULL UNIQUE COLLATE NOCASE,
  first_name            TEXT,
  last_name             TEXT,
  user_type             TEXT NOT NULL CHECK (user_type IN ('TECHNICIAN', 'END_USER')),
  state                 TEXT NOT NULL DEFAULT 'active' CHECK (state IN ('active', 'disabled', 'suspended', 'inactive')),
  sysadmin              INTEGER NOT NULL DEFAULT 0,
  password_hash         TEXT,                      -- scrypt$N$r$p$salt$hash; NULL = no password yet
  must_set_password     INTEGER NOT NULL DEFAULT 0,
  phone                 TEXT,                      -- E.164
  mfa_required          INTEGER NOT NULL DEFAULT 1,
  sso_state             TEXT NOT NULL DEFAULT 'NONE' CHECK (sso_state IN ('NONE', 'CONFIGURED', 'NOT_CONFIGURED')),
  sso_idp_name          TEXT,
  ip_allow_list         TEXT,                      -- JSON array of IPs / IPv4 CIDRs; NULL = any
  moved_url             TEXT,                      -- may contain {PORT}
  trial_expires_at      INTEGER,
  account_manager_name  TEXT,
  account_manager_email TEXT,
  bot_check_always_fails INTEGER NOT NULL DEFAULT 0, -- demo: captcha-fail@
  organization_id       INTEGER,
  client_id             INTEGER,
  company_name          TEXT,
  language              TEXT NOT NULL DEFAULT 'en-us',
  features              TEXT NOT NULL DEFAULT '[]', -- JSON array of feature flags
  created_at            INTEGER NOT NULL,
  updated_at            INTEGER NOT NULL
);

CREATE TABLE mfa_enrolments (
  id            INTEGER PRIMARY KEY,
  user_id       INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  type          TEXT NOT NULL CHECK (type IN ('U2F_TOKEN', 'TOTP', 'DUO', 'SMSOTP')),
  position      INTEGER NOT NULL,                  -- 0 = PRIMARY, 1 = SECONDARY ...
  secret        TEXT,                              -- TOTP base32 secret
  phone         TEXT,                              -- SMSOTP phone (E.164)
  credential_id TEXT,                              -- U2F_TOKEN credential id (base64url)
  public_key    TEXT,                              -- U2F_TOKEN COSE public key (base64url)
  sign_count    INTEGER NOT NULL DEFAULT 0,
  device_name   TEXT,
  created_at    INTEGER NOT NULL,
  UNIQUE (user_id, position)
);

-- Tokens issued by a sign-in step: MFA (loginToken) and SETUP_MFA (userToken).
CREATE TABLE login_tokens (
  token_hash     TEXT PRIMARY KEY,
  user_id        INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  purpose        TEXT NOT NULL CHECK (purpose IN ('MFA', 'SETUP_MFA')),
  mfa_type       TEXT,                             -- the method currently asked for
  stay_signed_in INTEGER NOT NULL DEFAULT 0,
  return_to      TEXT,
  created_at     INTEGER NOT NULL,
  expires_at     INTEGER NOT NULL,
  used_at        INTEGER
);

-- One challenge per code sent (SMS) or prompt opened (DUO, WebAuthn).
CREATE TABLE mfa_challenges (
  id               INTEGER PRIMARY KEY,
  login_token_hash TEXT REFERENCES login_tokens(token_hash) ON DELETE CASCADE,
  user_id          INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  type             TEXT NOT NULL,
  code_hash        TEXT,                           -- SMS code (sha256)
  channel_id       TEXT,                           -- DUO realtime channel
  challenge        TEXT,                           -- WebAuthn challenge (base64url)
  attempts         INTEGER NOT NULL DEFAULT 0,
  created_at       INTEGER NOT NULL,
  expires_at       INTEGER NOT NULL,
  used_at          INTEGER
);

-- Codes that lead to /resetPassword/{code} and friends.
CREATE TABLE verification_codes (
  code_hash  TEXT PRIMARY KEY,
  user_id    INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  purpose    TEXT NOT NULL CHECK (purpose IN ('SETUP_PASSWORD', 'RESET_PASSWORD', 'RESET_SMS', 'INVITATION')),
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  used_at    INTEGER
);

CREATE TABLE sessions (
  id           INTEGER PRIMARY KEY,
  token_hash   TEXT NOT NULL UNIQUE,
  user_id      INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  persistent   INTEGER NOT NULL DEFAULT 0,         -- staySignedIn
  created_at   INTEGER NOT NULL,
  expires_at   INTEGER NOT NULL,
  last_seen_at INTEGER NOT NULL,
  ip           TEXT,
  user_agent   TEXT
);
CREATE INDEX sessions_user ON sessions(user_id);

CREATE TABLE expired_trial_sessions (
  key_hash   TEXT PRIMARY KEY,
  user_id    INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  request    TEXT                                  -- EXTENSION | PURCHASE | CALL once acted upon
);

-- Consecutive failed sign-ins per email (also unknown emails, so escalation reveals nothing).
CREATE TABLE login_failures (
  email          TEXT PRIMARY KEY COLLATE NOCASE,
  failures       INTEGER NOT NULL,
  last_failed_at INTEGER NOT NULL
);

-- Single-use signed tokens already consumed (bot check, IdP requests).
CREATE TABLE used_tokens (
  jti        TEXT PRIMARY KEY,
  purpose    TEXT NOT NULL,
  expires_at INTEGER NOT NULL
);

CREATE TABLE outbox (
  id         INTEGER PRIMARY KEY,
  channel    TEXT NOT NULL CHECK (channel IN ('email', 'sms')),
  to_address TEXT NOT NULL,
  subject    TEXT,
  text       TEXT NOT NULL,
  link       TEXT,
  code       TEXT,
  created_at INTEGER NOT NULL
);

CREATE TABLE trial_links (
  code           TEXT PRIMARY KEY,
  status         TEXT NOT NULL CHECK (status IN ('VALID', 'EXPIRED', 'USED', 'REPLACED')),
  company_name   TEXT,
  first_name     TEXT,
  last_name      TEXT,
  email          TEXT,
  language       TEXT,
  sales_representative TEXT
);

CREATE TABLE invitations (
  code       TEXT PRIMARY KEY,
  email      TEXT NOT NULL COLLATE NOCASE,
  user_id    INTEGER REFERENCES users(id) ON DELETE CASCADE,
  auth_type  TEXT NOT NULL CHECK (auth_type IN ('NATIVE', 'SSO')),
  expires_at INTEGER NOT NULL,
  used_at    INTEGER
);

CREATE TABLE division_activations (
  activation_key TEXT PRIMARY KEY,
  division_name  TEXT NOT NULL,
  activated_at   INTEGER
);

CREATE TABLE branding (
  hostname        TEXT PRIMARY KEY COLLATE NOCASE,
  is_enabled      INTEGER NOT NULL DEFAULT 1,
  theme           TEXT,
  browser_name    TEXT,
  browser_enabled INTEGER NOT NULL DEFAULT 1,
  login_logo      TEXT,
  browser_icon    TEXT
);
