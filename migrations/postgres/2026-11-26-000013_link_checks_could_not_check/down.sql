ALTER TABLE link_check_runs DROP COLUMN failure_reason;
ALTER TABLE link_check_runs DROP COLUMN unreachable;
