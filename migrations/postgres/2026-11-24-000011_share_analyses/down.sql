DROP INDEX analyses_share_token;
ALTER TABLE analyses DROP COLUMN share_token;
