DELETE FROM payments WHERE subscription_id IS NOT NULL;
ALTER TABLE payments DROP COLUMN subscription_id;
ALTER TABLE payments DROP CONSTRAINT payments_credits_check;
ALTER TABLE payments ADD CONSTRAINT payments_credits_check CHECK (credits > 0);
DROP TABLE subscriptions;
ALTER TABLE users DROP COLUMN pro_subscribed;
ALTER TABLE users DROP COLUMN pro_granted;
