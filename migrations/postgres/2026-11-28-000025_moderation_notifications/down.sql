DELETE FROM notifications WHERE setup_id IS NULL OR comment_id IS NULL;
ALTER TABLE notifications DROP CONSTRAINT notifications_kind_check;
ALTER TABLE notifications ADD CONSTRAINT notifications_kind_check CHECK (kind IN ('comment', 'reply'));
ALTER TABLE notifications DROP COLUMN subject;
ALTER TABLE notifications ALTER COLUMN comment_id SET NOT NULL;
ALTER TABLE notifications ALTER COLUMN setup_id SET NOT NULL;
