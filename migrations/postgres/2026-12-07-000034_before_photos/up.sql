-- A post made from a re-rated analysis may carry the earlier analysis's photo (issue 58),
-- copied for the post (owned, so deleting the earlier analysis leaves it) and marked here so
-- every view labels it "Before".
ALTER TABLE community_images ADD COLUMN is_before BOOLEAN NOT NULL DEFAULT FALSE;
