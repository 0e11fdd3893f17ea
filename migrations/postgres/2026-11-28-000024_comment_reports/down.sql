DROP TABLE community_comment_reports;
