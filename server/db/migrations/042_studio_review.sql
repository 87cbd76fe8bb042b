-- 042: a studio approval names the revision it approved (issue 35, finding 4), and studio people sign
-- in on the product's sign-in page (finding 8): the studio's own sessions and failure counts go.

-- Each save of a change is a new revision (1 at creation). Approve and publish name the revision the
-- person's page showed, and are refused for any other (server/routes/studio/api-changes.ts).
ALTER TABLE studio_changes ADD COLUMN revision INTEGER NOT NULL DEFAULT 1;
-- The revision an event was about (saved, review asked, approved, sent back, published); NULL before 042.
ALTER TABLE studio_change_events ADD COLUMN revision INTEGER;

-- The studio reads the product's session now (server/routes/studio/people.ts).
DROP TABLE studio_sessions;
DROP TABLE studio_sign_in_failures;
