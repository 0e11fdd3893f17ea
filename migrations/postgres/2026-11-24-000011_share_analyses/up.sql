-- A signed-in user's analysis can be shared at /share/{share_token}: opt-in, revocable
-- (revoking clears the token, so the old link stops working), unguessable (256 random bits).
ALTER TABLE analyses ADD COLUMN share_token TEXT;
CREATE UNIQUE INDEX analyses_share_token ON analyses (share_token);
