DELETE FROM payments WHERE subscription_id IS NOT NULL;
CREATE TABLE payments_old (
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
    fulfilled_at TIMESTAMP,
    confirmed_at TIMESTAMP
);
INSERT INTO payments_old SELECT intent_id, user_id, package_id, credits, amount_cents, currency, provider, status,
    last_error, created_at, fulfilled_at, confirmed_at FROM payments;
DROP TABLE payments;
ALTER TABLE payments_old RENAME TO payments;
CREATE INDEX payments_user_id_idx ON payments (user_id);
DROP TABLE subscriptions;
ALTER TABLE users DROP COLUMN pro_subscribed;
ALTER TABLE users DROP COLUMN pro_granted;
