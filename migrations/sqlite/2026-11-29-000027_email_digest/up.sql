-- The daily e-mail digest is opt-in: a member who asked for it has a row. `covered_until`
-- is the time up to which their notifications were mailed (or predate the subscription);
-- a digest goes out at most once a day, only with unread notifications newer than that.
-- `token` is the one-click unsubscribe link's secret: it can only stop these e-mails, and
-- every digest must carry it, so it is kept as it is (a new one at every subscription).
CREATE TABLE digest_subscriptions (
    user_id INTEGER PRIMARY KEY NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    token TEXT NOT NULL UNIQUE,
    subscribed_at TIMESTAMP NOT NULL,
    covered_until TIMESTAMP NOT NULL
);
CREATE INDEX digest_subscriptions_due_idx ON digest_subscriptions (covered_until);
