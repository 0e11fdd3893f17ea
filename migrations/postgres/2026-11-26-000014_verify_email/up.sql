-- E-mail verification (DESIGN.md §5): an address is the account's own only once the link
-- mailed to it has been followed; until then email_verified_at is NULL.
ALTER TABLE users ADD COLUMN email_verified_at TIMESTAMP;
-- Accounts made before this migration were never sent a link, so nothing proves they own
-- their address: they start unverified and the app asks them to verify. Admins are the
-- exception: their role was given by the operator (the CLI or the operator's own
-- SETUPIQ_ADMIN_EMAILS), a migration takes no role away, and asking them to verify would
-- change nothing about their access; so their address counts as verified from now on.
UPDATE users SET email_verified_at = updated_at WHERE role = 'admin';

-- A verification link's token (256 random bits), stored as its digest like reset tokens:
-- single use, valid for 24 hours, for the address it was sent to.
CREATE TABLE email_verification_tokens (
    token_hash TEXT PRIMARY KEY NOT NULL,
    user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    email TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    expires_at TIMESTAMP NOT NULL,
    used_at TIMESTAMP
);
-- Also how resends are counted (links sent to an account in the last hour).
CREATE INDEX email_verification_tokens_user_idx ON email_verification_tokens (user_id, created_at);

-- The network a report came from (the sign-up key: an IPv4 address or an IPv6 /64), so
-- reports per network and day can be capped.
ALTER TABLE community_reports ADD COLUMN reporter_address TEXT;
CREATE INDEX community_reports_address_idx ON community_reports (reporter_address, created_at);
