-- Pro by subscription. `users.is_pro` stays what every reader checks: it is true while an
-- admin's grant stands (`pro_granted`) or a subscription is paid up (`pro_subscribed`),
-- and the two writers keep it so.
ALTER TABLE users ADD COLUMN pro_granted BOOLEAN NOT NULL DEFAULT 0;
ALTER TABLE users ADD COLUMN pro_subscribed BOOLEAN NOT NULL DEFAULT 0;
UPDATE users SET pro_granted = is_pro;

-- A member's Pro subscription, as the payment provider keeps it (Stripe's statuses).
CREATE TABLE subscriptions (
    id TEXT PRIMARY KEY NOT NULL,
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    plan TEXT NOT NULL,
    provider TEXT NOT NULL,
    status TEXT NOT NULL,
    current_period_end TIMESTAMP,
    cancel_at_period_end BOOLEAN NOT NULL DEFAULT 0,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL
);
CREATE INDEX subscriptions_by_user ON subscriptions (user_id, created_at);

-- A payment pays for a credit pack or for a period of a subscription (`subscription_id`;
-- it buys no credits then). SQLite changes a CHECK only by rebuilding the table.
CREATE TABLE payments_new (
    intent_id TEXT PRIMARY KEY NOT NULL,
    user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    package_id TEXT NOT NULL,
    credits INTEGER NOT NULL CHECK (credits >= 0),
    amount_cents BIGINT NOT NULL CHECK (amount_cents > 0),
    currency TEXT NOT NULL,
    provider TEXT NOT NULL,
    status TEXT NOT NULL,
    last_error TEXT,
    created_at TIMESTAMP NOT NULL,
    fulfilled_at TIMESTAMP,
    confirmed_at TIMESTAMP,
    subscription_id TEXT
);
INSERT INTO payments_new (intent_id, user_id, package_id, credits, amount_cents, currency, provider, status,
                          last_error, created_at, fulfilled_at, confirmed_at)
    SELECT intent_id, user_id, package_id, credits, amount_cents, currency, provider, status,
           last_error, created_at, fulfilled_at, confirmed_at
    FROM payments;
DROP TABLE payments;
ALTER TABLE payments_new RENAME TO payments;
CREATE INDEX payments_user_id_idx ON payments (user_id);
CREATE INDEX payments_subscription_idx ON payments (subscription_id);
