DROP TABLE analysis_holds;
