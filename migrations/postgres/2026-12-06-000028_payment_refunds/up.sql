-- The minute's settle looks up the payments due a refund (a first payment of Pro that arrived
-- for a checkout no longer wanted): few rows, read often.
CREATE INDEX payments_refund_due_idx ON payments (status) WHERE status = 'refund_due';
