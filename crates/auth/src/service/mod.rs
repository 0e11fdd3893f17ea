//! The business rules of accounts and sessions: plain functions over a connection (and,
//! for the flows that hash passwords, small async orchestrations over [`Db`]). No actix.
//!
//! [`Db`]: setupiq_db::Db

pub mod accounts;
pub mod deletion;
pub mod display_name;
pub mod email_change;
pub mod export;
pub mod ledger;
pub mod login;
pub mod password_change;
pub mod passwords;
pub mod profile;
pub mod reauth;
pub mod reset;
pub mod sessions;
pub mod signups;
pub mod throttle;
pub mod verify;
