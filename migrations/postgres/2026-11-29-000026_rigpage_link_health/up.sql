-- RigPage links are checked about once a day the way the catalogue's are: `health` is what
-- the last check saw ('unchecked' until the first, and again after the address changes),
-- `consecutive_failures` counts failed checks in a row, and the second makes the link
-- 'dead' and tells its owner once (kind 'rigpage_link_dead', `subject` the link's label).
ALTER TABLE rigpage_links ADD COLUMN health TEXT NOT NULL DEFAULT 'unchecked'
    CHECK (health IN ('unchecked', 'healthy', 'dead', 'unknown'));
ALTER TABLE rigpage_links ADD COLUMN consecutive_failures INTEGER NOT NULL DEFAULT 0;
ALTER TABLE rigpage_links ADD COLUMN checked_at TIMESTAMP;
CREATE INDEX rigpage_links_checked_idx ON rigpage_links (checked_at);
ALTER TABLE notifications DROP CONSTRAINT notifications_kind_check;
ALTER TABLE notifications ADD CONSTRAINT notifications_kind_check
    CHECK (kind IN ('comment', 'reply', 'post_removed', 'comment_removed', 'report_upheld', 'report_dismissed', 'top_week', 'rigpage_link_dead'));
