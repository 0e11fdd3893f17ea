//! Community: gamers publish their analysed setups with photos, vote on each other's,
//! report what breaks the rules, compete on leaderboards, and look at each other's
//! profiles.

pub mod dto;
pub mod error;
pub mod http;
mod models;
mod repo;
pub mod service;

pub use error::CommunityError;
