DROP TABLE rigpage_link_clicks;
DROP TABLE rigpage_views;
DROP TABLE rigpage_images;
DROP TABLE rigpage_links;
DROP TABLE rigpages;
