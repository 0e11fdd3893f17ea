-- The browser a session signed in from (its User-Agent, at most 512 characters), so that
-- the account's owner can tell their devices apart in the list of active sessions.
ALTER TABLE sessions ADD COLUMN user_agent TEXT;
