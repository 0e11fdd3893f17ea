DELETE FROM notifications WHERE kind = 'rigpage_link_dead';
ALTER TABLE notifications DROP CONSTRAINT notifications_kind_check;
ALTER TABLE notifications ADD CONSTRAINT notifications_kind_check
    CHECK (kind IN ('comment', 'reply', 'post_removed', 'comment_removed', 'report_upheld', 'report_dismissed', 'top_week'));
DROP INDEX rigpage_links_checked_idx;
ALTER TABLE rigpage_links DROP COLUMN checked_at;
ALTER TABLE rigpage_links DROP COLUMN consecutive_failures;
ALTER TABLE rigpage_links DROP COLUMN health;
