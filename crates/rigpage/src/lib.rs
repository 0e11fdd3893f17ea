//! RigPage: a creator's link-in-bio page at `/rig/{slug}`. The editor's config (theme,
//! texts, socials, the showcased setup, sections and links) is saved with the charges the
//! server enforces (the first Go Live, batches of links beyond the free ones); images are
//! uploaded through the decode pipeline; the public page is rendered by the server, one
//! renderer for the page and the editor's live preview; visitors' views and link clicks
//! are counted per day for the creator's analytics.

pub mod dto;
pub mod error;
pub mod http;
mod models;
pub mod render;
mod repo;
pub mod service;

pub use error::RigpageError;
pub use service::PublicPages;
