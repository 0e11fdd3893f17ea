-- A re-rating of the same setup (issue 58): the analysis it was re-rated from, one of the
-- same owner's. The comparison with it (deltas, followed suggestions) is stored with the
-- later analysis's result_json, so deleting the earlier one only unlinks (its photo goes),
-- and the later keeps its numbers; the rest of a chain stays as it was.
ALTER TABLE analyses ADD COLUMN previous_analysis_id INTEGER REFERENCES analyses (id) ON DELETE SET NULL;
CREATE INDEX analyses_previous_idx ON analyses (previous_analysis_id);
