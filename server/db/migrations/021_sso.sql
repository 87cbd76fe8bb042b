-- 021: single sign-on connections per tenant (issue 26). A connection is SAML 2.0 or OpenID Connect;
-- `settings` holds its public values as JSON, `secrets` its private ones (the SP signing key, the
-- OIDC client secret) sealed with the data key of APP_SECRET. A user signs in through the connection
-- sso_connection_id names (set by `npm run admin -- sso-assign`).
CREATE TABLE sso_connections (
  id              INTEGER PRIMARY KEY,
  organization_id INTEGER NOT NULL,
  protocol        TEXT NOT NULL CHECK (protocol IN ('saml', 'oidc')),
  name            TEXT NOT NULL,                   -- shown to visitors as idpName
  is_enabled      INTEGER NOT NULL DEFAULT 1,
  settings        TEXT NOT NULL,
  secrets         TEXT,
  created_at      INTEGER NOT NULL,
  updated_at      INTEGER NOT NULL,
  UNIQUE (organization_id, name)
);
ALTER TABLE users ADD COLUMN sso_connection_id INTEGER REFERENCES sso_connections(id) ON DELETE SET NULL;

-- Requests in flight: SAML AuthnRequest IDs (InResponseTo, node-saml's cache provider). A row is
-- removed when its response is accepted, so each request is answered once, by any instance.
CREATE TABLE sso_requests (
  key        TEXT PRIMARY KEY,
  value      TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
);

-- The demo OpenID provider's grants, codes and sessions (oidc-provider's adapter), shared by instances.
CREATE TABLE oidc_provider_store (
  model       TEXT NOT NULL,
  id          TEXT NOT NULL,
  payload     TEXT NOT NULL,
  grant_id    TEXT,
  user_code   TEXT,
  uid         TEXT,
  consumed_at INTEGER,
  expires_at  INTEGER NOT NULL,
  PRIMARY KEY (model, id)
);
CREATE INDEX oidc_provider_store_grant ON oidc_provider_store(grant_id);
CREATE INDEX oidc_provider_store_uid ON oidc_provider_store(uid);
