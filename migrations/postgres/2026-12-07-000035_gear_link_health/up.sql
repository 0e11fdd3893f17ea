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
ALTER TABLE notifications DROP CONSTRAINT notifications_kind_check;
ALTER TABLE notifications ADD CONSTRAINT notifications_kind_check
    CHECK (kind IN ('comment', 'reply', 'post_removed', 'comment_removed', 'report_upheld', 'report_dismissed', 'top_week', 'rigpage_link_dead', 'gear_link_dead'));
