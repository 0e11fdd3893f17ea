-- Two more reasons to report a setup or a comment: harassment, and other (its details say what).
ALTER TABLE community_reports DROP CONSTRAINT community_reports_reason_check;
ALTER TABLE community_reports ADD CONSTRAINT community_reports_reason_check
    CHECK (reason IN ('illegal_content', 'hate_speech', 'copyright', 'spam', 'harassment', 'other'));
ALTER TABLE community_comment_reports DROP CONSTRAINT community_comment_reports_reason_check;
ALTER TABLE community_comment_reports ADD CONSTRAINT community_comment_reports_reason_check
    CHECK (reason IN ('illegal_content', 'hate_speech', 'copyright', 'spam', 'harassment', 'other'));
