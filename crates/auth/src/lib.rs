//! Accounts and sessions: registration with the signup bonus, password login with
//! throttling, cookie sessions, password reset by e-mail, profile (username, picture),
//! account deletion, the admin role, and the credit ledger primitive the balance needs.

pub mod arrivals;
pub mod dto;
pub mod error;
pub mod extract;
pub mod http;
pub mod models;
mod repo;
pub mod service;

pub use error::AuthError;
pub use extract::{AdminUser, CurrentUser, OptionalUser, Session};
pub use models::{Account, Role};
pub use service::passwords::Passwords;
