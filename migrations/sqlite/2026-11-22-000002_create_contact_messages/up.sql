-- Messages sent through the contact form. A signed-in sender's messages go with the
-- account when it is deleted; `ip` and `created_at` drive the per-IP rate limit.
CREATE TABLE contact_messages (
    id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    name TEXT NOT NULL,
    email TEXT NOT NULL,
    message TEXT NOT NULL,
    user_id INTEGER REFERENCES users (id) ON DELETE CASCADE,
    ip TEXT,
    created_at TIMESTAMP NOT NULL
);
CREATE INDEX contact_messages_ip_idx ON contact_messages (ip, created_at);
CREATE INDEX contact_messages_user_id_idx ON contact_messages (user_id);
