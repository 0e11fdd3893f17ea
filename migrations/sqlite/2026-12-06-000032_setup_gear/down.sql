DROP TABLE setup_gear_clicks;
DROP TABLE setup_gear;
