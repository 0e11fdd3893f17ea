DROP TABLE webhook_events;
DROP TABLE payments;
DROP TABLE ad_views;
