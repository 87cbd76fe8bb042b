-- 005: the second round of hardening (issue 24). Tokens bound to the browser that earned them,
-- emailed links that can be sent again without a new one, a new phone confirmed by its code, Duo
-- delivery and stream caps in the database (every instance sees them), trial-link and invitation
-- codes stored as sha256.

-- sha256 (hex) of the HttpOnly nonce cookie of the browser a token or code was given to; NULL for
-- codes that travel by email or text only (reset links, activation keys).
ALTER TABLE login_tokens ADD COLUMN browser_hash TEXT;
ALTER TABLE verification_codes ADD COLUMN browser_hash TEXT;

-- A phone number typed during MFA setup: stored on the account only once a code sent to it came back.
ALTER TABLE login_tokens ADD COLUMN pending_phone TEXT;
-- The number an SMS code was sent to (the code proves that number).
ALTER TABLE mfa_challenges ADD COLUMN phone TEXT;

-- The live reset link / activation key, encrypted (AES-256-GCM, APP_SECRET), so that asking again
-- within the mail budget sends the same link instead of voiding the one the owner already has.
ALTER TABLE verification_codes ADD COLUMN sealed_code TEXT;
ALTER TABLE division_activations ADD COLUMN sealed_key TEXT;

-- Duo: the approval (or denial) written by whichever instance served the prompt; the instance that
-- holds the visitor's event stream polls for it.
ALTER TABLE mfa_challenges ADD COLUMN duo_message TEXT;
CREATE INDEX mfa_challenges_channel ON mfa_challenges(channel_id);

-- Open Duo event streams, one row each, refreshed while open: the caps per channel and per address
-- count them across instances. A row not refreshed for a minute (its instance died) no longer counts.
CREATE TABLE duo_streams (
  id         TEXT PRIMARY KEY,
  channel_id TEXT NOT NULL,
  address    TEXT NOT NULL,
  opened_at  INTEGER NOT NULL,
  seen_at    INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
);
CREATE INDEX duo_streams_channel ON duo_streams(channel_id, seen_at);
CREATE INDEX duo_streams_address ON duo_streams(address, seen_at);

-- Trial-link and invitation codes: sha256 at rest like every other code (fd_sha256 is registered by
-- db/index.ts for the migrations). A link that is no longer valid keeps no invitee data.
ALTER TABLE trial_links RENAME COLUMN code TO code_hash;
UPDATE trial_links SET code_hash = fd_sha256(code_hash);
UPDATE trial_links SET company_name = NULL, first_name = NULL, last_name = NULL, email = NULL, language = NULL WHERE status <> 'VALID';
ALTER TABLE invitations RENAME COLUMN code TO code_hash;
UPDATE invitations SET code_hash = fd_sha256(code_hash);

-- Idle sessions are found by last_seen_at; the outbox is purged by age.
CREATE INDEX sessions_seen ON sessions(last_seen_at);
CREATE INDEX outbox_created ON outbox(created_at);
