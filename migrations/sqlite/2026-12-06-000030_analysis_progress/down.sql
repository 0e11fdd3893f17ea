DROP INDEX analyses_previous_idx;
ALTER TABLE analyses DROP COLUMN previous_analysis_id;
