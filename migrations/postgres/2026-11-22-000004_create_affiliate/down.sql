DROP TABLE affiliate_clicks;
DROP TABLE products;
