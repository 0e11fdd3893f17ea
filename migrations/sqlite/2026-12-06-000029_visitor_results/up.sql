-- A visitor's free result, kept for the browser that made it (the hashed anonymous-id
-- cookie) for a short while (SETUPIQ_VISITOR_RESULT_MINUTES), so that the account they sign
-- up or sign in to right after gets it as one of its analyses. Claimed at most once: the row
-- goes in the transaction that saves it to the account; unclaimed rows past expires_at go,
-- with their photos, in the lazy purge and the media sweep.
CREATE TABLE analysis_visitor_results (
    visitor_hash TEXT PRIMARY KEY NOT NULL,
    input_type TEXT NOT NULL CHECK (input_type IN ('image', 'text')),
    input_text TEXT,
    image_key TEXT,
    thumbnail_key TEXT,
    result_json TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    expires_at TIMESTAMP NOT NULL
);
CREATE INDEX analysis_visitor_results_expires_idx ON analysis_visitor_results (expires_at);
