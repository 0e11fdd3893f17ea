//! The contact form: a visitor (signed in or not) sends a message to support. It is
//! stored, e-mailed to the support address with the sender as Reply-To, and limited per
//! client IP so the form cannot be used to flood the support inbox. Admins read the stored
//! messages in the admin panel's inbox.

pub mod dto;
pub mod error;
pub mod http;
pub mod models;
mod repo;
pub mod service;

pub use error::ContactError;
pub use models::ContactMessage;
