ALTER TABLE rigpages DROP COLUMN show_gear;
