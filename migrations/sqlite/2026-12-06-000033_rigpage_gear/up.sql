-- The RigPage's "My gear" block (issue 59): the owner may show the gear of their showcased
-- setup's community post, rendered by the server like the page's other blocks.
ALTER TABLE rigpages ADD COLUMN show_gear BOOLEAN NOT NULL DEFAULT FALSE;
