DROP TABLE contact_messages;
