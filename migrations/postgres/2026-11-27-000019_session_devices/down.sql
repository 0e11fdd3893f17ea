ALTER TABLE sessions DROP COLUMN user_agent;
