DROP TABLE community_reports;
DROP TABLE community_votes;
DROP TABLE community_images;
DROP TABLE community_setups;
