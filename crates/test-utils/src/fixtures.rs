//! Fixture builders for service tests: accounts without going through HTTP.

use std::sync::OnceLock;

use setupiq_auth::Account;
use setupiq_auth::service::accounts::{self, Registration};
use setupiq_auth::service::passwords;
use setupiq_db::DbConnection;

/// The password of every fixture account.
pub const PASSWORD: &str = "correct-horse-battery";

/// One real hash of [`PASSWORD`], computed once per test binary.
pub fn password_hash() -> &'static str {
    static HASH: OnceLock<String> = OnceLock::new();
    HASH.get_or_init(|| passwords::hash_blocking(PASSWORD).unwrap())
}

/// A registered account (with its signup bonus) for `email`.
pub fn account(conn: &mut DbConnection, email: &str) -> Account {
    let registration = Registration {
        email,
        display_name: "Test Gamer",
        password_hash: password_hash(),
        make_admin: false,
        signup_bonus: true,
    };
    accounts::register(conn, &registration, chrono::Utc::now()).unwrap()
}
