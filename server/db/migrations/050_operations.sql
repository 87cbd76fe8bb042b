-- 050: the operator's day (issue 36, docs/deploy.md). A tenant's own email sender, Twilio account and
-- Duo application (tenant-settings), used in preference to the deployment's: the credentials sealed
-- like SSO keys (JSON, AES-GCM under APP_SECRET); a tenant disabled by the operator (tenants disable),
-- its active users disabled with it and marked so that enabling it gives back exactly those.

ALTER TABLE tenant_settings ADD COLUMN mail_from TEXT;
ALTER TABLE tenant_settings ADD COLUMN twilio TEXT;
ALTER TABLE tenant_settings ADD COLUMN duo TEXT;
ALTER TABLE tenant_settings ADD COLUMN disabled_at INTEGER;
ALTER TABLE users ADD COLUMN disabled_with_tenant INTEGER NOT NULL DEFAULT 0;

-- The tenant a message is for (its sender and Twilio account), and the From address it was given.
ALTER TABLE deliveries ADD COLUMN organization_id INTEGER;
ALTER TABLE deliveries ADD COLUMN from_address TEXT;
