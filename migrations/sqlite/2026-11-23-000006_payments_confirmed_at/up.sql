-- When the buyer's own confirmation first reported this purchase: a repeated confirmation
-- reports no credits added (the webhook may have credited it before).
ALTER TABLE payments ADD COLUMN confirmed_at TIMESTAMP;
