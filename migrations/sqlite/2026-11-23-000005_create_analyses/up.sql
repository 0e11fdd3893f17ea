-- A saved analysis: what was analysed (a photo in the media store, or a description), the
-- SetupIQ Score in tenths, which analyzer produced it, and the full result as delivered
-- (scores, comments, cable inventory, suggestions with their products) as JSON.
CREATE TABLE analyses (
    id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    input_type TEXT NOT NULL CHECK (input_type IN ('image', 'text')),
    input_text TEXT,
    image_key TEXT,
    thumbnail_key TEXT,
    overall_tenths INTEGER NOT NULL CHECK (overall_tenths BETWEEN 0 AND 100),
    analyzer TEXT NOT NULL,
    result_json TEXT NOT NULL,
    status TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL
);
CREATE INDEX analyses_user_created_idx ON analyses (user_id, created_at);

-- The one free analysis of an anonymous visitor: per browser (the hashed anonymous-id
-- cookie, unique) and counted per IP address and day.
CREATE TABLE analysis_trials (
    id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    visitor_hash TEXT NOT NULL UNIQUE,
    ip TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL
);
CREATE INDEX analysis_trials_ip_idx ON analysis_trials (ip, created_at);
