//! Test support shared by every crate's integration tests: [`TestDb`] on both backends
//! (with the [`both_backends!`] macro), [`TestApp`] serving the real `App` over real HTTP,
//! users built as the product makes them (`app.user(email).credits(5).pro().sign_up()`),
//! [`fixtures`] for service tests, [`SmtpSink`], a local SMTP listener, and the stand-ins
//! [`StripeStandIn`], [`OpenAiStandIn`] and [`S3StandIn`] speaking their services' real
//! protocols.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod app;
pub mod bench;
mod db;
pub mod fixtures;
mod openai;
mod photos;
mod proxy;
mod s3;
mod smtp;
mod standin;
mod stripe;
mod users;

pub use app::{SentMail, TestApp, TestClient, TestResponse, test_epoch};
pub use db::TestDb;
pub use openai::{OpenAiBehaviour, OpenAiStandIn, RecordedChatRequest};
pub use photos::{eval_photos, labelled_photos, upright_photo};
pub use proxy::FreezableProxy;
pub use s3::S3StandIn;
pub use smtp::{ReceivedMail, SmtpSink};
pub use stripe::StripeStandIn;
pub use users::{FIXTURE_SETUP, TestUser, UserBuilder};

/// Runs each named test function on both backends: for `fn name(db: TestDb)` it generates
/// the tests `name::sqlite` and `name::postgres`, each with a fresh, migrated database.
/// The bodies stay ordinary functions, so rustfmt formats them and an IDE follows them:
///
/// ```ignore
/// both_backends!(registers_once, sessions_expire);
///
/// fn registers_once(db: TestDb) {
///     let mut conn = db.conn();
///     …
/// }
/// ```
/// The PostgreSQL variant is skipped, loudly, when no server is reachable, unless
/// `SETUPIQ_REQUIRE_POSTGRES=1` (CI), where that is a failure.
#[macro_export]
macro_rules! both_backends {
    ($($name:ident),+ $(,)?) => {$(
        mod $name {
            #[test]
            fn sqlite() {
                super::$name($crate::TestDb::sqlite());
            }

            #[test]
            fn postgres() {
                let Some(db) = $crate::TestDb::postgres() else { return };
                super::$name(db);
            }
        }
    )+};
}

/// Like [`both_backends!`] for `async fn name(db: TestDb)` (HTTP tests); each runs in an
/// actix system.
#[macro_export]
macro_rules! both_backends_async {
    ($($name:ident),+ $(,)?) => {$(
        mod $name {
            #[actix_web::test]
            async fn sqlite() {
                super::$name($crate::TestDb::sqlite()).await;
            }

            #[actix_web::test]
            async fn postgres() {
                let Some(db) = $crate::TestDb::postgres() else { return };
                super::$name(db).await;
            }
        }
    )+};
}
