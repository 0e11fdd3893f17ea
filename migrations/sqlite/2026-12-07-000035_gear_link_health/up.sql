-- Gear links of live posts join the daily RigPage link check (issue 59): the same three
-- columns as `rigpage_links` (`health`: what the last check saw, 'unchecked' until the first;
-- `consecutive_failures`: failed checks in a row, the second making the link 'dead';
-- `checked_at`: when it was last claimed). A replaced list starts unchecked (new rows), and
-- the state goes with its item. A link going dead tells the post's owner once (kind
-- 'gear_link_dead', `setup_id` the post, `subject` the item's name).
ALTER TABLE setup_gear ADD COLUMN health TEXT NOT NULL DEFAULT 'unchecked'
    CHECK (health IN ('unchecked', 'healthy', 'dead', 'unknown'));
ALTER TABLE setup_gear ADD COLUMN consecutive_failures INTEGER NOT NULL DEFAULT 0;
ALTER TABLE setup_gear ADD COLUMN checked_at TIMESTAMP;
CREATE INDEX setup_gear_checked_idx ON setup_gear (checked_at);
-- SQLite cannot change a CHECK in place: the table is rebuilt with its rows.
CREATE TABLE notifications_new (
    id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind TEXT NOT NULL CHECK (kind IN ('comment', 'reply', 'post_removed', 'comment_removed', 'report_upheld', 'report_dismissed', 'top_week', 'rigpage_link_dead', 'gear_link_dead')),
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
