-- The bell also tells of a moderator's decisions (a member's post or comment removed, a
-- reporter's report upheld or dismissed) and of a setup reaching the week's top 3. Those
-- rows point at no comment (it may be gone) and at the setup only while it stands;
-- `subject` keeps what they are about (the post's title, the start of the comment) as it
-- was then.
-- SQLite cannot relax a column's NOT NULL or a CHECK in place: the table is rebuilt
-- with its rows.
CREATE TABLE notifications_new (
    id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind TEXT NOT NULL CHECK (kind IN ('comment', 'reply', 'post_removed', 'comment_removed', 'report_upheld', 'report_dismissed', 'top_week')),
    actor_id INTEGER REFERENCES users (id) ON DELETE SET NULL,
    setup_id INTEGER REFERENCES community_setups (id) ON DELETE CASCADE,
    comment_id INTEGER REFERENCES community_comments (id) ON DELETE CASCADE,
    created_at TIMESTAMP NOT NULL,
    read_at TIMESTAMP,
    subject TEXT,
    UNIQUE (user_id, comment_id)
);
INSERT INTO notifications_new (id, user_id, kind, actor_id, setup_id, comment_id, created_at, read_at)
    SELECT id, user_id, kind, actor_id, setup_id, comment_id, created_at, read_at FROM notifications;
DROP TABLE notifications;
ALTER TABLE notifications_new RENAME TO notifications;
CREATE INDEX notifications_user_idx ON notifications (user_id, created_at);
CREATE INDEX notifications_unread_idx ON notifications (user_id, read_at);
