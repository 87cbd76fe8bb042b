-- 003: account flows (port of ../003_account_flows.sql). Division activation keys created by
-- registration and 'Resend Activation' belong to a user (activating the key activates that user) and
-- expire; the seeded demo keys have no user and no expiry. Registration keeps the optional 'Tell us
-- about yourself' answers.
ALTER TABLE division_activations ADD COLUMN user_id BIGINT REFERENCES users(id) ON DELETE CASCADE;
ALTER TABLE division_activations ADD COLUMN expires_at BIGINT;
ALTER TABLE users ADD COLUMN registration_profile TEXT; -- JSON {businessType, teamSize, products}
