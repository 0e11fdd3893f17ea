DELETE FROM community_reports WHERE reason IN ('harassment', 'other');
DELETE FROM community_comment_reports WHERE reason IN ('harassment', 'other');
ALTER TABLE community_reports DROP CONSTRAINT community_reports_reason_check;
ALTER TABLE community_reports ADD CONSTRAINT community_reports_reason_check
    CHECK (reason IN ('illegal_content', 'hate_speech', 'copyright', 'spam'));
ALTER TABLE community_comment_reports DROP CONSTRAINT community_comment_reports_reason_check;
ALTER TABLE community_comment_reports ADD CONSTRAINT community_comment_reports_reason_check
    CHECK (reason IN ('illegal_content', 'hate_speech', 'copyright', 'spam'));
