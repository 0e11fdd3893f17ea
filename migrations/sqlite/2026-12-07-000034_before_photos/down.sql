ALTER TABLE community_images DROP COLUMN is_before;
