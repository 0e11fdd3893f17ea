-- What a member is told in the app (the bell): someone commented on their setup, or replied
-- to their comment. One row per event and recipient (the key below); read_at is set when
-- they open it. Rows go with their recipient, their setup or their comment.
CREATE TABLE notifications (
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
CREATE INDEX notifications_user_idx ON notifications (user_id, created_at);
CREATE INDEX notifications_unread_idx ON notifications (user_id, read_at);
