-- 020: the delivery queue (issue 26). Every email and text is a row: written in the caller's
-- transaction, claimed by one worker of one instance at a time (a lease that expires when that worker
-- dies, so another re-claims it), retried with backoff, and settled with the provider's answer.
-- /dev/outbox reads the same rows in demo mode. docs/delivery-and-sso.md describes the life of a row.
CREATE TABLE deliveries (
  id               INTEGER PRIMARY KEY,
  channel          TEXT NOT NULL CHECK (channel IN ('email', 'sms')),
  kind             TEXT NOT NULL,                  -- reset, activation, … (server/delivery/kinds.ts)
  to_address       TEXT NOT NULL,
  language         TEXT NOT NULL,
  subject          TEXT,
  text             TEXT NOT NULL,                  -- the plain-text body ('' once sent outside demo mode)
  html             TEXT,                           -- email only
  link             TEXT,
  code             TEXT,
  status           TEXT NOT NULL CHECK (status IN ('held', 'pending', 'sent', 'failed')),
  attempts         INTEGER NOT NULL DEFAULT 0,
  next_attempt_at  INTEGER NOT NULL,
  lease_owner      TEXT,                           -- the worker holding it, until lease_expires_at
  lease_expires_at INTEGER,
  provider         TEXT,                           -- smtp, twilio
  provider_id      TEXT,                           -- Message-ID / Twilio SID
  last_result      TEXT,                           -- the provider's last answer or error
  created_at       INTEGER NOT NULL,
  sent_at          INTEGER,
  expires_at       INTEGER NOT NULL                -- when housekeeping may delete it
);
CREATE INDEX deliveries_due ON deliveries(status, next_attempt_at);
CREATE INDEX deliveries_to ON deliveries(to_address);
