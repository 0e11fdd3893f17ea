-- Clicks from known bots (by User-Agent) are kept but never counted.
ALTER TABLE affiliate_clicks ADD COLUMN is_bot BOOLEAN NOT NULL DEFAULT FALSE;
CREATE INDEX affiliate_clicks_created_idx ON affiliate_clicks (created_at);

-- Counted clicks per product and UTC day, added to in the transaction of each click: the
-- admin's totals, revenue, top products, categories and daily chart read these few rows
-- instead of every click.
CREATE TABLE affiliate_click_days (
    day DATE NOT NULL,
    product_id BIGINT NOT NULL REFERENCES products (id) ON DELETE CASCADE,
    clicks INTEGER NOT NULL CHECK (clicks >= 0),
    PRIMARY KEY (day, product_id)
);
INSERT INTO affiliate_click_days (day, product_id, clicks)
SELECT created_at::date, product_id, COUNT(*) FROM affiliate_clicks GROUP BY 1, 2;

-- The last counted click of each session and each signed-in user ('s:' or 'u:' and the
-- id), overall (category '') and, for sessions, per product category. "Distinct
-- sessions that clicked in the last N days" is then a count of the rows whose last click
-- is within them (the window always ends now): a count over visitors instead of a
-- distinct over every click (1M clicks: 960 ms as a distinct on PostgreSQL).
CREATE TABLE affiliate_click_visitors (
    visitor TEXT NOT NULL,
    category TEXT NOT NULL,
    last_click_at TIMESTAMP NOT NULL,
    PRIMARY KEY (visitor, category)
);
CREATE INDEX affiliate_click_visitors_last_idx ON affiliate_click_visitors (category, last_click_at);
INSERT INTO affiliate_click_visitors (visitor, category, last_click_at)
SELECT 's:' || c.session_id, '', MAX(c.created_at) FROM affiliate_clicks c WHERE NOT c.is_bot GROUP BY c.session_id;
INSERT INTO affiliate_click_visitors (visitor, category, last_click_at)
SELECT 's:' || c.session_id, p.product_category, MAX(c.created_at)
FROM affiliate_clicks c JOIN products p ON p.id = c.product_id WHERE NOT c.is_bot GROUP BY c.session_id, p.product_category;
INSERT INTO affiliate_click_visitors (visitor, category, last_click_at)
SELECT 'u:' || c.user_id, '', MAX(c.created_at) FROM affiliate_clicks c WHERE NOT c.is_bot AND c.user_id IS NOT NULL GROUP BY c.user_id;

-- A product link's health as the last verification run saw it. A failure (dead, error,
-- timeout) adds to consecutive_failures and the second in a row deactivates the product;
-- a bot-check page ("unknown") changes nothing. expected_final_url: an admin accepted
-- that the link redirects there.
ALTER TABLE products ADD COLUMN link_status TEXT CHECK (link_status IN ('healthy', 'dead', 'warning', 'unknown'));
ALTER TABLE products ADD COLUMN link_verdict TEXT;
ALTER TABLE products ADD COLUMN link_status_code INTEGER;
ALTER TABLE products ADD COLUMN link_final_url TEXT;
ALTER TABLE products ADD COLUMN consecutive_failures INTEGER NOT NULL DEFAULT 0;
ALTER TABLE products ADD COLUMN expected_final_url TEXT;

-- Verification runs: one pending at a time (the partial unique index).
CREATE TABLE link_check_runs (
    id BIGSERIAL PRIMARY KEY,
    status TEXT NOT NULL CHECK (status IN ('pending', 'completed', 'failed')),
    category TEXT,
    network TEXT,
    started_by BIGINT REFERENCES users (id) ON DELETE SET NULL,
    started_at TIMESTAMP NOT NULL,
    finished_at TIMESTAMP,
    total_checked INTEGER NOT NULL DEFAULT 0,
    healthy INTEGER NOT NULL DEFAULT 0,
    dead INTEGER NOT NULL DEFAULT 0,
    warnings INTEGER NOT NULL DEFAULT 0,
    unknown INTEGER NOT NULL DEFAULT 0,
    errors INTEGER NOT NULL DEFAULT 0,
    timeouts INTEGER NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX link_check_runs_one_pending ON link_check_runs (status) WHERE status = 'pending';
CREATE INDEX link_check_runs_started_idx ON link_check_runs (started_at);

-- What a run found for each product: the chain of hops as JSON [{url, status}].
CREATE TABLE link_checks (
    id BIGSERIAL PRIMARY KEY,
    run_id BIGINT NOT NULL REFERENCES link_check_runs (id) ON DELETE CASCADE,
    product_id BIGINT NOT NULL REFERENCES products (id) ON DELETE CASCADE,
    url TEXT NOT NULL,
    final_url TEXT,
    status_code INTEGER,
    verdict TEXT NOT NULL,
    chain TEXT NOT NULL,
    elapsed_ms INTEGER NOT NULL,
    checked_at TIMESTAMP NOT NULL
);
CREATE INDEX link_checks_run_idx ON link_checks (run_id);
CREATE INDEX link_checks_product_idx ON link_checks (product_id, checked_at);

-- Every admin action: who (kept by name when the account goes), what, on what, why, when.
CREATE TABLE admin_log (
    id BIGSERIAL PRIMARY KEY,
    admin_id BIGINT REFERENCES users (id) ON DELETE SET NULL,
    admin_name TEXT NOT NULL,
    action TEXT NOT NULL,
    target_type TEXT NOT NULL,
    target_id BIGINT NOT NULL,
    details TEXT,
    created_at TIMESTAMP NOT NULL
);
CREATE INDEX admin_log_created_idx ON admin_log (created_at);
