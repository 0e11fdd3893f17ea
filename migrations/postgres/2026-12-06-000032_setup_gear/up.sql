-- The gear of a community post (issue 59), in the owner's order: a name, a category and,
-- optionally, where to buy it (http or https, never a private address). The owner replaces
-- the whole list at once; it goes with its post.
CREATE TABLE setup_gear (
    id BIGSERIAL PRIMARY KEY,
    setup_id BIGINT NOT NULL REFERENCES community_setups (id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    name TEXT NOT NULL,
    category TEXT NOT NULL CHECK (category IN ('monitor', 'keyboard', 'mouse', 'headset', 'chair', 'desk', 'lighting', 'audio', 'pc', 'other')),
    url TEXT
);
CREATE INDEX setup_gear_setup_idx ON setup_gear (setup_id, position);

-- Each click on a gear item's link (`/go/gear/{id}`): bots are kept and never counted, the
-- post's owner is not recorded, as product clicks. The category and the network (the
-- product's, or the shop the owner's own URL names) are kept with the click, so the admin's
-- analytics and the owner's counts outlive a replaced list; a deleted post's clicks stay
-- for the analytics.
CREATE TABLE setup_gear_clicks (
    id BIGSERIAL PRIMARY KEY,
    gear_id BIGINT REFERENCES setup_gear (id) ON DELETE SET NULL,
    setup_id BIGINT REFERENCES community_setups (id) ON DELETE SET NULL,
    user_id BIGINT REFERENCES users (id) ON DELETE SET NULL,
    category TEXT NOT NULL,
    network TEXT NOT NULL,
    is_bot BOOLEAN NOT NULL,
    created_at TIMESTAMP NOT NULL
);
CREATE INDEX setup_gear_clicks_setup_idx ON setup_gear_clicks (setup_id);
CREATE INDEX setup_gear_clicks_created_idx ON setup_gear_clicks (created_at);
