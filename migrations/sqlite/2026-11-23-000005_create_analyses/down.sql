DROP TABLE analysis_trials;
DROP TABLE analyses;
