//! [`AppCtx`]: the handles every flow of the product reaches for, in one value.
//!
//! A flow that awaits (sends mail, stores a picture, checks a password, calls a provider)
//! takes `&AppCtx` first and then only what is its own (`&Passwords`, the payment provider,
//! the analyzer), instead of five to seven positional handles. Plain rules over a
//! connection keep taking `&mut DbConnection`. It lives here, the lowest crate that can hold
//! the pool beside the core's handles.

use std::sync::Arc;

use setupiq_core::feed_changes::FeedChanges;
use setupiq_core::mail::Mailer;
use setupiq_core::media::MediaStore;
use setupiq_core::upload::Uploads;
use setupiq_core::{Config, SharedClock};

use crate::Db;
use crate::hooks::Hooks;

/// The process's shared handles. Cheap to clone: every field is a handle.
#[derive(Clone)]
pub struct AppCtx {
    pub db: Db,
    /// The one clock of the process (tests move it).
    pub clock: SharedClock,
    pub config: Arc<Config>,
    pub mailer: Mailer,
    pub media: MediaStore,
    /// The image threads: admission, preparation, the safety check, storing.
    pub uploads: Uploads,
    /// Where a write that changes the community feed records it.
    pub changes: FeedChanges,
    /// What the other crates do when an account or an analysis arrives, is exported or
    /// goes: registered once by the gateway.
    pub hooks: Arc<Hooks>,
}
