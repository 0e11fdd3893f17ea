//! Test support shared by every crate's integration tests: [`TestDb`] on both backends
//! (with the [`both_backends!`] macro), [`TestApp`] serving the real `App` over real HTTP,
//! fixture builders, [`SmtpSink`], a local SMTP listener, and [`StripeStandIn`], a local
//! server speaking Stripe's PaymentIntent API.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod app;
mod db;
pub mod fixtures;
mod openai;
mod smtp;
mod standin;
mod stripe;

pub use app::{SentMail, TestApp, TestClient, TestResponse, test_epoch};
pub use db::TestDb;
pub use openai::{OpenAiBehaviour, OpenAiStandIn, RecordedChatRequest};
pub use smtp::{ReceivedMail, SmtpSink};
pub use stripe::StripeStandIn;

/// Generates a `sqlite` and a `postgres` test from one synchronous body:
///
/// ```ignore
/// both_backends! {
///     fn registers_once(db) { let mut conn = db.conn(); … }
/// }
/// ```
/// The PostgreSQL variant is skipped, loudly, when no server is reachable, unless
/// `SETUPIQ_REQUIRE_POSTGRES=1` (CI), where that is a failure.
#[macro_export]
macro_rules! both_backends {
    ($(fn $name:ident($db:ident) $body:block)*) => {$(
        mod $name {
            #[allow(unused_imports)]
            use super::*;

            #[test]
            fn sqlite() {
                let $db = $crate::TestDb::sqlite();
                $body
            }

            #[test]
            fn postgres() {
                let Some($db) = $crate::TestDb::postgres() else { return };
                $body
            }
        }
    )*};
}

/// Like [`both_backends!`] for async bodies (HTTP tests); each runs in an actix system.
#[macro_export]
macro_rules! both_backends_async {
    ($(async fn $name:ident($db:ident) $body:block)*) => {$(
        mod $name {
            #[allow(unused_imports)]
            use super::*;

            #[actix_web::test]
            async fn sqlite() {
                let $db = $crate::TestDb::sqlite();
                $body
            }

            #[actix_web::test]
            async fn postgres() {
                let Some($db) = $crate::TestDb::postgres() else { return };
                $body
            }
        }
    )*};
}
