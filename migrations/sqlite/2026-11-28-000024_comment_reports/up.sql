-- Reports of comments: the same reasons, statuses and one-per-user rule as the reports of
-- setups, into the admins' moderation queue. A report goes with its comment.
CREATE TABLE community_comment_reports (
    id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    comment_id INTEGER NOT NULL REFERENCES community_comments (id) ON DELETE CASCADE,
    reporter_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    reason TEXT NOT NULL CHECK (reason IN ('illegal_content', 'hate_speech', 'copyright', 'spam')),
    details TEXT,
    status TEXT NOT NULL CHECK (status IN ('open', 'dismissed', 'upheld')),
    created_at TIMESTAMP NOT NULL,
    reviewed_at TIMESTAMP,
    reporter_address TEXT,
    UNIQUE (comment_id, reporter_id)
);
CREATE INDEX community_comment_reports_reporter_idx ON community_comment_reports (reporter_id, created_at);
CREATE INDEX community_comment_reports_status_idx ON community_comment_reports (status, created_at);
CREATE INDEX community_comment_reports_address_idx ON community_comment_reports (reporter_address, created_at);
