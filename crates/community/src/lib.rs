//! Community: gamers publish their analysed setups with photos, vote on each other's,
//! report what breaks the rules, and compete on leaderboards. This first part holds the
//! rules of publishing, votes and reports over the database; the feed, leaderboards,
//! My Posts, public profiles and the endpoints build on them.

pub mod error;
mod models;
mod repo;
pub mod service;

pub use error::CommunityError;
