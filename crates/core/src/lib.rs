//! The shared kernel of SetupIQ: the one error type every endpoint answers with, the
//! typed configuration, the clock, the typed ids of rows every crate passes around,
//! validation helpers, secure tokens, the media store, image decoding with limits and the
//! mailer. Nothing here knows a domain's rules.

pub mod clock;
pub mod config;
pub mod error;
pub mod feed_changes;
pub mod forwarded;
pub mod ids;
pub mod images;
pub mod mail;
pub mod media;
pub mod media_sweep;
pub mod money;
pub mod net;
pub mod openapi;
pub mod tokens;
pub mod ttl_cache;
pub mod upload;
pub mod user_agent;
pub mod validation;

pub use clock::{Clock, SharedClock};
pub use config::Config;
pub use error::{ApiError, ErrorBody, ErrorCode, Issue};
pub use ids::{
    AdViewId, AnalysisId, CommentId, GearId, LinkId, NotificationId, ProductId, RunId, SetupId, UserId,
};
