DROP TABLE analysis_visitor_results;
