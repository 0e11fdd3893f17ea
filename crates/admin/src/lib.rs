//! The admin panel's server side: affiliate click analytics (totals, uniques, estimated
//! revenue in cents, top products, categories, a daily series), link health (SSRF-safe
//! verification runs that catch silent failures, revenue at risk, an admin's fixes), the
//! moderation queue of community reports, accounts (Pro and the admin role) and the admin
//! log every action writes to.

pub mod dto;
pub mod error;
pub mod http;
mod models;
mod repo;
pub mod service;

pub use error::AdminError;
