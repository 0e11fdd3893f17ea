-- Links the checker could not check from its own side (name resolution, connection
-- refused, TLS, the network unreachable): never dead, never a failure. A run in which most
-- links could not be checked is failed with its reason and changes no product.
ALTER TABLE link_check_runs ADD COLUMN unreachable INTEGER NOT NULL DEFAULT 0;
ALTER TABLE link_check_runs ADD COLUMN failure_reason TEXT;
