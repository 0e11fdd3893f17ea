ALTER TABLE payments DROP COLUMN confirmed_at;
