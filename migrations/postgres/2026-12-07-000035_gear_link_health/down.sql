DELETE FROM notifications WHERE kind = 'gear_link_dead';
ALTER TABLE notifications DROP CONSTRAINT notifications_kind_check;
ALTER TABLE notifications ADD CONSTRAINT notifications_kind_check
    CHECK (kind IN ('comment', 'reply', 'post_removed', 'comment_removed', 'report_upheld', 'report_dismissed', 'top_week', 'rigpage_link_dead'));
DROP INDEX setup_gear_checked_idx;
ALTER TABLE setup_gear DROP COLUMN checked_at;
ALTER TABLE setup_gear DROP COLUMN consecutive_failures;
ALTER TABLE setup_gear DROP COLUMN health;
