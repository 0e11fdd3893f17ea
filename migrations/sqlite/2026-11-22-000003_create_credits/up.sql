-- One row per rewarded ad started; a claim counts it (once) after 3 seconds.
CREATE TABLE ad_views (
    id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    token_hash TEXT NOT NULL UNIQUE,
    started_at TIMESTAMP NOT NULL,
    claimed_at TIMESTAMP
);
CREATE INDEX ad_views_user_claimed_idx ON ad_views (user_id, claimed_at);

-- A card purchase: the provider's PaymentIntent and the pack it buys.
CREATE TABLE payments (
    intent_id TEXT PRIMARY KEY NOT NULL,
    user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    package_id TEXT NOT NULL,
    credits INTEGER NOT NULL CHECK (credits > 0),
    amount_cents BIGINT NOT NULL CHECK (amount_cents > 0),
    currency TEXT NOT NULL,
    provider TEXT NOT NULL,
    status TEXT NOT NULL,
    last_error TEXT,
    created_at TIMESTAMP NOT NULL,
    fulfilled_at TIMESTAMP
);
CREATE INDEX payments_user_id_idx ON payments (user_id);

-- Stripe webhook events already handled (each is processed once).
CREATE TABLE webhook_events (
    event_id TEXT PRIMARY KEY NOT NULL,
    event_type TEXT NOT NULL,
    received_at TIMESTAMP NOT NULL
);
