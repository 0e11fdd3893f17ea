-- A setup published to the community: one of the user's analyses with its photos, a title
-- and a description. score (the sum of the votes) and upvotes are kept on the row and
-- changed in the transaction of each vote; open_reports counts reports not yet reviewed,
-- and a setup with 3 of them is hidden from everyone until an admin reviews it.
CREATE TABLE community_setups (
    id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    analysis_id INTEGER NOT NULL REFERENCES analyses (id) ON DELETE CASCADE,
    title TEXT,
    description TEXT,
    score INTEGER NOT NULL,
    upvotes INTEGER NOT NULL CHECK (upvotes >= 0),
    open_reports INTEGER NOT NULL CHECK (open_reports >= 0),
    hidden BOOLEAN NOT NULL,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL
);
CREATE INDEX community_setups_rank_idx ON community_setups (hidden, score, created_at);
CREATE INDEX community_setups_created_idx ON community_setups (hidden, created_at);
CREATE INDEX community_setups_user_idx ON community_setups (user_id, created_at);

-- The photos of a setup in display order. owned: stored for this post (deleted with it);
-- false for the analysis's own photo, which belongs to the analysis.
CREATE TABLE community_images (
    id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    setup_id INTEGER NOT NULL REFERENCES community_setups (id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    image_key TEXT NOT NULL,
    thumbnail_key TEXT,
    owned BOOLEAN NOT NULL
);
CREATE INDEX community_images_setup_idx ON community_images (setup_id, position);

-- One vote per user and setup (the key), +1 or -1.
CREATE TABLE community_votes (
    setup_id INTEGER NOT NULL REFERENCES community_setups (id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    value INTEGER NOT NULL CHECK (value IN (-1, 1)),
    created_at TIMESTAMP NOT NULL,
    PRIMARY KEY (setup_id, user_id)
);
CREATE INDEX community_votes_user_idx ON community_votes (user_id, created_at);

-- One report per user and setup, anonymous to the uploader; the admin queue reads the open
-- ones (status open, then dismissed or upheld when reviewed).
CREATE TABLE community_reports (
    id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    setup_id INTEGER NOT NULL REFERENCES community_setups (id) ON DELETE CASCADE,
    reporter_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    reason TEXT NOT NULL CHECK (reason IN ('illegal_content', 'hate_speech', 'copyright', 'spam')),
    details TEXT,
    status TEXT NOT NULL CHECK (status IN ('open', 'dismissed', 'upheld')),
    created_at TIMESTAMP NOT NULL,
    reviewed_at TIMESTAMP,
    UNIQUE (setup_id, reporter_id)
);
CREATE INDEX community_reports_reporter_idx ON community_reports (reporter_id, created_at);
CREATE INDEX community_reports_status_idx ON community_reports (status, created_at);
