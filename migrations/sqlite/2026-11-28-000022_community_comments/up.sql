-- Comments under a community setup: plain text, replies one level deep (parent_id is a
-- comment without a parent). A deleted comment that has replies stays, without its author
-- and text, as "[deleted]" so that its thread keeps its shape; one without replies goes.
CREATE TABLE community_comments (
    id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    setup_id INTEGER NOT NULL REFERENCES community_setups (id) ON DELETE CASCADE,
    parent_id INTEGER REFERENCES community_comments (id) ON DELETE CASCADE,
    user_id INTEGER REFERENCES users (id) ON DELETE SET NULL,
    body TEXT NOT NULL,
    deleted BOOLEAN NOT NULL,
    created_at TIMESTAMP NOT NULL,
    edited_at TIMESTAMP
);
CREATE INDEX community_comments_thread_idx ON community_comments (setup_id, parent_id, created_at);
CREATE INDEX community_comments_parent_idx ON community_comments (parent_id, created_at);
CREATE INDEX community_comments_user_idx ON community_comments (user_id, created_at);
