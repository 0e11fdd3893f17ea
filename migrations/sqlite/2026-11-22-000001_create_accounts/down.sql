DROP TABLE credit_ledger;
DROP TABLE login_attempts;
DROP TABLE password_reset_tokens;
DROP TABLE sessions;
DROP TABLE users;
