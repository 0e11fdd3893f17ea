-- RigPage links are checked about once a day the way the catalogue's are: `health` is what
-- the last check saw ('unchecked' until the first, and again after the address changes),
-- `consecutive_failures` counts failed checks in a row, and the second makes the link
-- 'dead' and tells its owner once (kind 'rigpage_link_dead', `subject` the link's label).
ALTER TABLE rigpage_links ADD COLUMN health TEXT NOT NULL DEFAULT 'unchecked'
    CHECK (health IN ('unchecked', 'healthy', 'dead', 'unknown'));
ALTER TABLE rigpage_links ADD COLUMN consecutive_failures INTEGER NOT NULL DEFAULT 0;
ALTER TABLE rigpage_links ADD COLUMN checked_at TIMESTAMP;
CREATE INDEX rigpage_links_checked_idx ON rigpage_links (checked_at);
-- SQLite cannot change a CHECK in place: the table is rebuilt with its rows.
CREATE TABLE notifications_new (
    id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind TEXT NOT NULL CHECK (kind IN ('comment', 'reply', 'post_removed', 'comment_removed', 'report_upheld', 'report_dismissed', 'top_week', 'rigpage_link_dead')),
    actor_id INTEGER REFERENCES users (id) ON DELETE SET NULL,
    setup_id INTEGER REFERENCES community_setups (id) ON DELETE CASCADE,
    comment_id INTEGER REFERENCES community_comments (id) ON DELETE CASCADE,
    created_at TIMESTAMP NOT NULL,
    read_at TIMESTAMP,
    subject TEXT,
    UNIQUE (user_id, comment_id)
);
INSERT INTO notifications_new (id, user_id, kind, actor_id, setup_id, comment_id, created_at, read_at, subject)
    SELECT id, user_id, kind, actor_id, setup_id, comment_id, created_at, read_at, subject FROM notifications;
DROP TABLE notifications;
ALTER TABLE notifications_new RENAME TO notifications;
CREATE INDEX notifications_user_idx ON notifications (user_id, created_at);
CREATE INDEX notifications_unread_idx ON notifications (user_id, read_at);
