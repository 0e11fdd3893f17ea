-- The Stripe customer a subscription bills (`cus_…`): a member's later subscriptions reuse
-- it, so Stripe keeps one customer, with one saved card, per member. Test-mode
-- subscriptions have none.
ALTER TABLE subscriptions ADD COLUMN customer_id TEXT;
