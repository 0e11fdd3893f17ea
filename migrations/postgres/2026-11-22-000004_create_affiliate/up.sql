-- The affiliate catalogue: one product per tier (budget, balanced, premium) for each
-- analysis category (Chair & Comfort: a gaming and an ergonomic trio), and a generic trio
-- (analysis_category NULL) for anything else. Prices in cents, commission in basis points.
CREATE TABLE products (
    id BIGSERIAL PRIMARY KEY,
    name TEXT NOT NULL,
    product_category TEXT NOT NULL,
    analysis_category TEXT,
    chair_style TEXT,
    tier TEXT NOT NULL CHECK (tier IN ('budget', 'balanced', 'premium')),
    price_cents BIGINT NOT NULL CHECK (price_cents > 0),
    link TEXT NOT NULL,
    network TEXT NOT NULL,
    commission_bp INTEGER NOT NULL,
    justification TEXT NOT NULL,
    rating_tenths INTEGER NOT NULL,
    is_active BOOLEAN NOT NULL DEFAULT TRUE,
    last_verified_at TIMESTAMP,
    created_at TIMESTAMP NOT NULL
);
CREATE INDEX products_category_idx ON products (analysis_category, tier);

-- A click on a product link in a suggestion. Kept for analytics when the account goes.
CREATE TABLE affiliate_clicks (
    id BIGSERIAL PRIMARY KEY,
    product_id BIGINT NOT NULL REFERENCES products (id) ON DELETE CASCADE,
    user_id BIGINT REFERENCES users (id) ON DELETE SET NULL,
    session_id TEXT NOT NULL,
    suggestion_context TEXT,
    analysis_id BIGINT,
    created_at TIMESTAMP NOT NULL
);
CREATE INDEX affiliate_clicks_product_idx ON affiliate_clicks (product_id, created_at);
CREATE INDEX affiliate_clicks_user_idx ON affiliate_clicks (user_id);

INSERT INTO products (name, product_category, analysis_category, chair_style, tier, price_cents, link, network, commission_bp, justification, rating_tenths, created_at) VALUES
    ('Cable Management Sleeve Kit (4 sleeves, 80 ties)', 'Cable Management', 'Cable Management', NULL, 'budget', 1999, 'https://www.amazon.com/s?k=Cable+Management+Sleeve+Kit+%284+sleeves%2C+80+ties%29&tag=setupiq-20', 'amazon', 400, 'Bundles loose cables into a few tidy runs for less than the price of a game.', 44, CURRENT_TIMESTAMP),
    ('Under-Desk Cable Tray (2-pack)', 'Cable Management', 'Cable Management', NULL, 'balanced', 3499, 'https://www.amazon.com/s?k=Under-Desk+Cable+Tray+%282-pack%29&tag=setupiq-20', 'amazon', 400, 'Lifts power bricks and cable runs off the floor and out of sight.', 46, CURRENT_TIMESTAMP),
    ('Complete Cable Management Kit: tray, raceway and clips', 'Cable Management', 'Cable Management', NULL, 'premium', 5999, 'https://www.amazon.com/s?k=Complete+Cable+Management+Kit%3A+tray%2C+raceway+and+clips&tag=setupiq-20', 'amazon', 400, 'One kit for every cable from wall to desk: the clean look of a showroom setup.', 47, CURRENT_TIMESTAMP),
    ('Govee RGBIC LED Strip Lights (5 m)', 'Lighting', 'RGB/Lighting', NULL, 'budget', 2499, 'https://www.amazon.com/s?k=Govee+RGBIC+LED+Strip+Lights+%285+m%29&tag=setupiq-20', 'amazon', 400, 'Bias lighting behind the monitor: more atmosphere, less eye strain.', 45, CURRENT_TIMESTAMP),
    ('Philips Hue Play Light Bar (2-pack)', 'Lighting', 'RGB/Lighting', NULL, 'balanced', 12999, 'https://www.amazon.com/s?k=Philips+Hue+Play+Light+Bar+%282-pack%29&tag=setupiq-20', 'amazon', 400, 'Syncs colour with your screen and games for an immersive glow.', 47, CURRENT_TIMESTAMP),
    ('Nanoleaf Shapes Hexagons Smarter Kit (9 panels)', 'Lighting', 'RGB/Lighting', NULL, 'premium', 19999, 'https://www.amazon.com/s?k=Nanoleaf+Shapes+Hexagons+Smarter+Kit+%289+panels%29&tag=setupiq-20', 'amazon', 400, 'A statement wall piece that reacts to music and games.', 46, CURRENT_TIMESTAMP),
    ('Desk Organizer with Drawers', 'Accessories', 'Desk Cleanliness', NULL, 'budget', 2499, 'https://www.amazon.com/s?k=Desk+Organizer+with+Drawers&tag=setupiq-20', 'amazon', 400, 'A place for every small thing, so the desk surface stays clear.', 44, CURRENT_TIMESTAMP),
    ('XXL Desk Mat (900 x 400 mm)', 'Accessories', 'Desk Cleanliness', NULL, 'balanced', 2999, 'https://www.amazon.com/s?k=XXL+Desk+Mat+%28900+x+400+mm%29&tag=setupiq-20', 'amazon', 400, 'One calm surface under keyboard and mouse that hides scratches and crumbs.', 47, CURRENT_TIMESTAMP),
    ('Monitor Stand with Storage Drawer', 'Desk', 'Desk Cleanliness', NULL, 'premium', 7999, 'https://www.amazon.com/s?k=Monitor+Stand+with+Storage+Drawer&tag=setupiq-20', 'amazon', 400, 'Raises the screen and swallows the clutter in one move.', 45, CURRENT_TIMESTAMP),
    ('Single Monitor Arm (VESA, gas spring)', 'Monitor', 'Monitor Setup', NULL, 'budget', 2999, 'https://www.amazon.com/s?k=Single+Monitor+Arm+%28VESA%2C+gas+spring%29&tag=setupiq-20', 'amazon', 400, 'Puts the screen at eye height and frees desk space.', 45, CURRENT_TIMESTAMP),
    ('Dual Monitor Arm (gas spring)', 'Monitor', 'Monitor Setup', NULL, 'balanced', 8999, 'https://www.amazon.com/s?k=Dual+Monitor+Arm+%28gas+spring%29&tag=setupiq-20', 'amazon', 400, 'Aligns two monitors at the same height and angle.', 46, CURRENT_TIMESTAMP),
    ('LG UltraGear 27" QHD 180 Hz Monitor', 'Monitor', 'Monitor Setup', NULL, 'premium', 29999, 'https://www.amazon.com/s?k=LG+UltraGear+27%22+QHD+180+Hz+Monitor&tag=setupiq-20', 'amazon', 400, 'A sharper, faster main screen that lifts the whole setup.', 47, CURRENT_TIMESTAMP),
    ('GTRACING Gaming Chair with Footrest', 'Chair', 'Chair & Comfort', 'gaming', 'budget', 13999, 'https://www.amazon.com/s?k=GTRACING+Gaming+Chair+with+Footrest&tag=setupiq-20', 'amazon', 400, 'Adjustable back and armrests for long sessions on a budget.', 43, CURRENT_TIMESTAMP),
    ('Corsair TC100 Relaxed Gaming Chair', 'Chair', 'Chair & Comfort', 'gaming', 'balanced', 29999, 'https://www.amazon.com/s?k=Corsair+TC100+Relaxed+Gaming+Chair&tag=setupiq-20', 'amazon', 400, 'Wide, breathable seat with proper lumbar support.', 45, CURRENT_TIMESTAMP),
    ('Secretlab Titan Evo', 'Chair', 'Chair & Comfort', 'gaming', 'premium', 54900, 'https://www.amazon.com/s?k=Secretlab+Titan+Evo&tag=setupiq-20', 'amazon', 400, 'The reference gaming chair: magnetic head pillow, built-in lumbar, 4D armrests.', 47, CURRENT_TIMESTAMP),
    ('SIHOO M18 Ergonomic Office Chair', 'Chair', 'Chair & Comfort', 'ergonomic', 'budget', 15999, 'https://www.amazon.com/s?k=SIHOO+M18+Ergonomic+Office+Chair&tag=setupiq-20', 'amazon', 400, 'Mesh back and adjustable lumbar support at a friendly price.', 43, CURRENT_TIMESTAMP),
    ('Steelcase Series 1', 'Chair', 'Chair & Comfort', 'ergonomic', 'balanced', 49500, 'https://www.amazon.com/s?k=Steelcase+Series+1&tag=setupiq-20', 'amazon', 400, 'Adaptive back support and a 12-year warranty.', 46, CURRENT_TIMESTAMP),
    ('Herman Miller Embody', 'Chair', 'Chair & Comfort', 'ergonomic', 'premium', 139500, 'https://www.amazon.com/s?k=Herman+Miller+Embody&tag=setupiq-20', 'amazon', 400, 'Designed with doctors for healthy posture over long hours.', 48, CURRENT_TIMESTAMP),
    ('Artificial Desk Plant Set (3 pots)', 'Accessories', 'Aesthetic Vibe', NULL, 'budget', 1999, 'https://www.amazon.com/s?k=Artificial+Desk+Plant+Set+%283+pots%29&tag=setupiq-20', 'amazon', 400, 'Adds green and softness to a setup of black plastic.', 44, CURRENT_TIMESTAMP),
    ('RGB Ambient Desk Lamp', 'Lighting', 'Aesthetic Vibe', NULL, 'balanced', 4999, 'https://www.amazon.com/s?k=RGB+Ambient+Desk+Lamp&tag=setupiq-20', 'amazon', 400, 'A warm accent light that ties the colour theme together.', 45, CURRENT_TIMESTAMP),
    ('Walnut Monitor Riser and Desk Shelf', 'Desk', 'Aesthetic Vibe', NULL, 'premium', 8999, 'https://www.amazon.com/s?k=Walnut+Monitor+Riser+and+Desk+Shelf&tag=setupiq-20', 'amazon', 400, 'Real wood makes a setup look designed, not assembled.', 46, CURRENT_TIMESTAMP),
    ('SteelSeries QcK Heavy XXL Mouse Pad', 'Accessories', NULL, NULL, 'budget', 3999, 'https://www.amazon.com/s?k=SteelSeries+QcK+Heavy+XXL+Mouse+Pad&tag=setupiq-20', 'amazon', 400, 'A big, smooth surface that upgrades every setup.', 47, CURRENT_TIMESTAMP),
    ('Keychron K8 Pro Mechanical Keyboard', 'Keyboard', NULL, NULL, 'balanced', 10999, 'https://www.amazon.com/s?k=Keychron+K8+Pro+Mechanical+Keyboard&tag=setupiq-20', 'amazon', 400, 'Hot-swappable switches and a clean tenkeyless layout.', 46, CURRENT_TIMESTAMP),
    ('SteelSeries Arctis Nova 7 Wireless Headset', 'Headset', NULL, NULL, 'premium', 17999, 'https://www.amazon.com/s?k=SteelSeries+Arctis+Nova+7+Wireless+Headset&tag=setupiq-20', 'amazon', 400, 'Clear sound and a detachable mic for gaming and calls.', 46, CURRENT_TIMESTAMP);
