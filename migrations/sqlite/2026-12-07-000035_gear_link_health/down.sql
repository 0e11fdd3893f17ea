DELETE FROM notifications WHERE kind = 'gear_link_dead';
CREATE TABLE notifications_old (
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
INSERT INTO notifications_old (id, user_id, kind, actor_id, setup_id, comment_id, created_at, read_at, subject)
    SELECT id, user_id, kind, actor_id, setup_id, comment_id, created_at, read_at, subject FROM notifications;
DROP TABLE notifications;
ALTER TABLE notifications_old RENAME TO notifications;
CREATE INDEX notifications_user_idx ON notifications (user_id, created_at);
CREATE INDEX notifications_unread_idx ON notifications (user_id, read_at);
DROP INDEX setup_gear_checked_idx;
ALTER TABLE setup_gear DROP COLUMN checked_at;
ALTER TABLE setup_gear DROP COLUMN consecutive_failures;
ALTER TABLE setup_gear DROP COLUMN health;
