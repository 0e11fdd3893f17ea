-- The bell also tells of a moderator's decisions (a member's post or comment removed, a
-- reporter's report upheld or dismissed) and of a setup reaching the week's top 3. Those
-- rows point at no comment (it may be gone) and at the setup only while it stands;
-- `subject` keeps what they are about (the post's title, the start of the comment) as it
-- was then.
ALTER TABLE notifications ALTER COLUMN setup_id DROP NOT NULL;
ALTER TABLE notifications ALTER COLUMN comment_id DROP NOT NULL;
ALTER TABLE notifications ADD COLUMN subject TEXT;
ALTER TABLE notifications DROP CONSTRAINT notifications_kind_check;
ALTER TABLE notifications ADD CONSTRAINT notifications_kind_check
    CHECK (kind IN ('comment', 'reply', 'post_removed', 'comment_removed', 'report_upheld', 'report_dismissed', 'top_week'));
