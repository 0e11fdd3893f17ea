DROP TABLE community_comments;
