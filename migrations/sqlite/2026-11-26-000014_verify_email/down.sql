DROP INDEX community_reports_address_idx;
ALTER TABLE community_reports DROP COLUMN reporter_address;
DROP INDEX email_verification_tokens_user_idx;
DROP TABLE email_verification_tokens;
ALTER TABLE users DROP COLUMN email_verified_at;
