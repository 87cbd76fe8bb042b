-- 042: a studio approval names the revision it approved (issue 35, finding 4), and studio people sign
-- in on the product's sign-in page (finding 8): port of ../042_studio_review.sql.
ALTER TABLE studio_changes ADD COLUMN revision INTEGER NOT NULL DEFAULT 1;
ALTER TABLE studio_change_events ADD COLUMN revision INTEGER;

DROP TABLE studio_sessions;
DROP TABLE studio_sign_in_failures;
