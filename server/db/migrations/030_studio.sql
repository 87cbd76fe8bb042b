-- 030: the screen studio's people, drafts, reviews and versions (issue 29). These tables are the
-- catalogue's history, not the demo tenant's data: wipe() and POST /dev/reset keep them (KEPT_TABLES),
-- as they keep the files of screens/ and locales/ they describe.

-- Who may use the studio, and as what: an editor drafts changes, an approver approves those of others.
-- The person signs in with the password of their account (users.email).
CREATE TABLE studio_people (
  email      TEXT PRIMARY KEY,
  role       TEXT NOT NULL CHECK (role IN ('editor', 'approver')),
  created_at INTEGER NOT NULL
);

-- Signed-in studio people: the sha256 of the cookie's token.
CREATE TABLE studio_sessions (
  token_hash TEXT PRIMARY KEY,
  email      TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
);
CREATE INDEX studio_sessions_expiry ON studio_sessions(expires_at);

-- Failed studio sign-ins, counted per email over a window (server/routes/studio/people.ts).
CREATE TABLE studio_sign_in_failures (
  email TEXT NOT NULL,
  at    INTEGER NOT NULL
);
CREATE INDEX studio_sign_in_failures_email ON studio_sign_in_failures(email, at);

-- A change of the catalogue: its files after (`files`) and before (`base`, JSON: path to text, null
-- when the file did not exist), its review state and, once published, the version it made.
CREATE TABLE studio_changes (
  id          INTEGER PRIMARY KEY,
  screen_id   TEXT NOT NULL,
  note        TEXT NOT NULL,
  author      TEXT NOT NULL,
  state       TEXT NOT NULL CHECK (state IN ('draft', 'review', 'approved', 'published', 'discarded')),
  files       TEXT NOT NULL,
  base        TEXT NOT NULL,
  approved_by TEXT,
  version     INTEGER,
  created_at  INTEGER NOT NULL,
  updated_at  INTEGER NOT NULL
);
CREATE INDEX studio_changes_state ON studio_changes(state, updated_at);

-- What happened to a change, in order: saved, review asked, approved, sent back (with the comment), published.
CREATE TABLE studio_change_events (
  id        INTEGER PRIMARY KEY,
  change_id INTEGER NOT NULL REFERENCES studio_changes(id),
  at        INTEGER NOT NULL,
  who       TEXT NOT NULL,
  action    TEXT NOT NULL,
  comment   TEXT
);
CREATE INDEX studio_change_events_change ON studio_change_events(change_id, id);

-- The catalogue's versions: the first is the catalogue as the studio found it, then every publish,
-- rollback and change made to the files outside the studio. A version holds the full text of the
-- files it changed (studio_version_files); the catalogue at version N is, per file, its text in the
-- last version up to N that has it.
CREATE TABLE studio_versions (
  number     INTEGER PRIMARY KEY,
  kind       TEXT NOT NULL CHECK (kind IN ('baseline', 'publish', 'rollback', 'outside')),
  author     TEXT NOT NULL,
  approver   TEXT,
  note       TEXT NOT NULL,
  change_id  INTEGER,
  restores   INTEGER,
  created_at INTEGER NOT NULL
);

CREATE TABLE studio_version_files (
  version INTEGER NOT NULL REFERENCES studio_versions(number),
  path    TEXT NOT NULL,
  text    TEXT,
  PRIMARY KEY (version, path)
);
CREATE INDEX studio_version_files_path ON studio_version_files(path, version);
