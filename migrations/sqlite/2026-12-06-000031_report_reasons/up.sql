-- Two more reasons to report a setup or a comment: harassment, and other (its details say what).
-- SQLite cannot change a CHECK in place: both tables are rebuilt with their rows.
CREATE TABLE community_reports_new (
    id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    setup_id INTEGER NOT NULL REFERENCES community_setups (id) ON DELETE CASCADE,
    reporter_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    reason TEXT NOT NULL CHECK (reason IN ('illegal_content', 'hate_speech', 'copyright', 'spam', 'harassment', 'other')),
    details TEXT,
    status TEXT NOT NULL CHECK (status IN ('open', 'dismissed', 'upheld')),
    created_at TIMESTAMP NOT NULL,
    reviewed_at TIMESTAMP,
    reporter_address TEXT,
    UNIQUE (setup_id, reporter_id)
);
INSERT INTO community_reports_new (id, setup_id, reporter_id, reason, details, status, created_at, reviewed_at, reporter_address)
    SELECT id, setup_id, reporter_id, reason, details, status, created_at, reviewed_at, reporter_address FROM community_reports;
DROP TABLE community_reports;
ALTER TABLE community_reports_new RENAME TO community_reports;
CREATE INDEX community_reports_reporter_idx ON community_reports (reporter_id, created_at);
CREATE INDEX community_reports_status_idx ON community_reports (status, created_at);
CREATE INDEX community_reports_address_idx ON community_reports (reporter_address, created_at);
CREATE TABLE community_comment_reports_new (
    id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    comment_id INTEGER NOT NULL REFERENCES community_comments (id) ON DELETE CASCADE,
    reporter_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    reason TEXT NOT NULL CHECK (reason IN ('illegal_content', 'hate_speech', 'copyright', 'spam', 'harassment', 'other')),
    details TEXT,
    status TEXT NOT NULL CHECK (status IN ('open', 'dismissed', 'upheld')),
    created_at TIMESTAMP NOT NULL,
    reviewed_at TIMESTAMP,
    reporter_address TEXT,
    UNIQUE (comment_id, reporter_id)
);
INSERT INTO community_comment_reports_new (id, comment_id, reporter_id, reason, details, status, created_at, reviewed_at, reporter_address)
    SELECT id, comment_id, reporter_id, reason, details, status, created_at, reviewed_at, reporter_address FROM community_comment_reports;
DROP TABLE community_comment_reports;
ALTER TABLE community_comment_reports_new RENAME TO community_comment_reports;
CREATE INDEX community_comment_reports_reporter_idx ON community_comment_reports (reporter_id, created_at);
CREATE INDEX community_comment_reports_status_idx ON community_comment_reports (status, created_at);
CREATE INDEX community_comment_reports_address_idx ON community_comment_reports (reporter_address, created_at);
