DROP TABLE rigpage_slug_holds;
