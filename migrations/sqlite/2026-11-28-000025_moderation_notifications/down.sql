DELETE FROM notifications WHERE setup_id IS NULL OR comment_id IS NULL;
CREATE TABLE notifications_old (
    id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind TEXT NOT NULL CHECK (kind IN ('comment', 'reply')),
    actor_id INTEGER REFERENCES users (id) ON DELETE SET NULL,
    setup_id INTEGER NOT NULL REFERENCES community_setups (id) ON DELETE CASCADE,
    comment_id INTEGER NOT NULL REFERENCES community_comments (id) ON DELETE CASCADE,
    created_at TIMESTAMP NOT NULL,
    read_at TIMESTAMP,
    UNIQUE (user_id, comment_id)
);
INSERT INTO notifications_old SELECT id, user_id, kind, actor_id, setup_id, comment_id, created_at, read_at FROM notifications;
DROP TABLE notifications;
ALTER TABLE notifications_old RENAME TO notifications;
CREATE INDEX notifications_user_idx ON notifications (user_id, created_at);
CREATE INDEX notifications_unread_idx ON notifications (user_id, read_at);
