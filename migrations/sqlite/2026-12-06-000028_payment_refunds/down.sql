DROP INDEX payments_refund_due_idx;
