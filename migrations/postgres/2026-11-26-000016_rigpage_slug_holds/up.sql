-- The slug of a deleted account's RigPage stays held for 30 days (held_until), so nobody
-- else takes over its address, and the links people shared, at once.
CREATE TABLE rigpage_slug_holds (
    slug_key TEXT NOT NULL PRIMARY KEY,
    held_until TIMESTAMP NOT NULL
);
