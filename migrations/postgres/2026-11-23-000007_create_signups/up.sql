-- Accounts created per client address (an IPv6 client by its /64), for the sign-up limits:
-- at most SETUPIQ_SIGNUPS_PER_HOUR_PER_IP an hour, and the signup bonus for at most
-- SETUPIQ_SIGNUP_BONUS_PER_DAY_PER_IP a day. No user id: deleting an account does not
-- give its address a new allowance. Rows older than a day are pruned per address.
CREATE TABLE signups (
    id BIGSERIAL PRIMARY KEY,
    address TEXT NOT NULL,
    bonus BOOLEAN NOT NULL,
    created_at TIMESTAMP NOT NULL
);
CREATE INDEX signups_address_idx ON signups (address, created_at);
