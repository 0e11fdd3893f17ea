-- A user's RigPage (one row per user, made on the first save). slug_key is the slug in
-- lower case: slugs are unique without regard to case. ever_published records the paid
-- first Go Live (switching off and on again later is free); paid_link_batches is the
-- high-water mark of paid batches of 10 links beyond the 5 free ones.
CREATE TABLE rigpages (
    user_id BIGINT PRIMARY KEY NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    enabled BOOLEAN NOT NULL,
    show_on_community BOOLEAN NOT NULL,
    slug TEXT,
    slug_key TEXT UNIQUE,
    setup_id BIGINT REFERENCES analyses (id) ON DELETE SET NULL,
    avatar_url TEXT,
    tagline TEXT,
    bio TEXT,
    social_links_json TEXT NOT NULL,
    theme TEXT NOT NULL,
    highlight_color TEXT NOT NULL,
    font_style TEXT NOT NULL,
    button_style TEXT NOT NULL,
    corner_radius INTEGER NOT NULL CHECK (corner_radius BETWEEN 0 AND 100),
    background_url TEXT,
    background_overlay TEXT NOT NULL,
    background_blur INTEGER NOT NULL CHECK (background_blur BETWEEN 0 AND 50),
    background_opacity INTEGER NOT NULL CHECK (background_opacity BETWEEN 0 AND 100),
    show_setup_in_background BOOLEAN NOT NULL,
    sections_json TEXT NOT NULL,
    ever_published BOOLEAN NOT NULL,
    paid_link_batches INTEGER NOT NULL CHECK (paid_link_batches >= 0),
    updated_at TIMESTAMP NOT NULL
);

-- The custom links of a page, in display order; a link switched off stays in the editor
-- but not on the page.
CREATE TABLE rigpage_links (
    id BIGSERIAL PRIMARY KEY,
    user_id BIGINT NOT NULL REFERENCES rigpages (user_id) ON DELETE CASCADE,
    label TEXT NOT NULL,
    url TEXT NOT NULL,
    section TEXT,
    image_url TEXT,
    display_order INTEGER NOT NULL,
    enabled BOOLEAN NOT NULL,
    created_at TIMESTAMP NOT NULL
);
CREATE INDEX rigpage_links_user_idx ON rigpage_links (user_id, display_order);

-- Images uploaded for a RigPage (avatar, background, link images): who owns each, so a
-- config may only show its owner's uploads and account deletion removes them.
CREATE TABLE rigpage_images (
    media_key TEXT PRIMARY KEY NOT NULL,
    user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind TEXT NOT NULL CHECK (kind IN ('avatar', 'background', 'link')),
    created_at TIMESTAMP NOT NULL
);
CREATE INDEX rigpage_images_user_idx ON rigpage_images (user_id, created_at);

-- Visitors' page views per UTC day (the owner's own visits and known bots not counted).
CREATE TABLE rigpage_views (
    user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    day DATE NOT NULL,
    views INTEGER NOT NULL,
    PRIMARY KEY (user_id, day)
);

-- Visitors' clicks per link and UTC day, counted by the /rig/{slug}/go/{id} redirect.
CREATE TABLE rigpage_link_clicks (
    link_id BIGINT NOT NULL REFERENCES rigpage_links (id) ON DELETE CASCADE,
    day DATE NOT NULL,
    clicks INTEGER NOT NULL,
    PRIMARY KEY (link_id, day)
);
