DROP TABLE notifications;
