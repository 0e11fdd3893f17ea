-- One photo analysis in flight per account or anonymous visitor ("user:42", "visitor:<sha256>"),
-- taken before any work and only when the credit (or the free trial) is there: concurrent
-- analyses of one account are refused at once, on every replica. The row goes in the
-- transaction that saves and charges the result, or when the analysis fails; a row past
-- expires_at (its process was killed) no longer counts and is replaced by the next.
CREATE TABLE analysis_holds (
    owner TEXT PRIMARY KEY NOT NULL,
    token TEXT NOT NULL,
    expires_at TIMESTAMP NOT NULL
);
