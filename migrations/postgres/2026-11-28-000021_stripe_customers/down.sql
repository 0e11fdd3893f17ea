ALTER TABLE subscriptions DROP COLUMN customer_id;
