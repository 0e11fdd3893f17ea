DROP TABLE digest_subscriptions;
