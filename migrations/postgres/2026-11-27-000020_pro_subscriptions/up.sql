-- Pro by subscription. `users.is_pro` stays what every reader checks: it is true while an
-- admin's grant stands (`pro_granted`) or a subscription is paid up (`pro_subscribed`),
-- and the two writers keep it so.
ALTER TABLE users ADD COLUMN pro_granted BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE users ADD COLUMN pro_subscribed BOOLEAN NOT NULL DEFAULT FALSE;
UPDATE users SET pro_granted = is_pro;

-- A member's Pro subscription, as the payment provider keeps it (Stripe's statuses).
CREATE TABLE subscriptions (
    id TEXT PRIMARY KEY NOT NULL,
    user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    plan TEXT NOT NULL,
    provider TEXT NOT NULL,
    status TEXT NOT NULL,
    current_period_end TIMESTAMP,
    cancel_at_period_end BOOLEAN NOT NULL DEFAULT FALSE,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL
);
CREATE INDEX subscriptions_by_user ON subscriptions (user_id, created_at);

-- A payment pays for a credit pack or for a period of a subscription (`subscription_id`;
-- it buys no credits then).
ALTER TABLE payments DROP CONSTRAINT payments_credits_check;
ALTER TABLE payments ADD CONSTRAINT payments_credits_check CHECK (credits >= 0);
ALTER TABLE payments ADD COLUMN subscription_id TEXT;
CREATE INDEX payments_subscription_idx ON payments (subscription_id);
