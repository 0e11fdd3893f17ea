//! [`Hooks`]: what the crates built on `auth` and `analysis` do when an account arrives, is
//! exported or goes, and when an analysis goes. `auth` and `analysis` know none of those
//! crates, so the gateway lists each crate's function once, in the one [`Hooks`] value every
//! [`AppCtx`] carries; a flow reads them from `ctx.hooks`, never from optional app data.
//!
//! The hooks live here, beside [`AppCtx`], because the context must name them and is the
//! lowest crate that can; `auth` and `analysis` re-export each under its old path.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use actix_web::HttpRequest;
use chrono::{DateTime, Utc};
use serde::Serialize;
use setupiq_core::error::Cause;
use setupiq_core::media::MediaKey;
use setupiq_core::{AnalysisId, UserId};

use crate::{AppCtx, DbConnection, DieselError};

/// Every hook of the application, registered once by the gateway (tests may leave any out).
#[derive(Clone, Default)]
pub struct Hooks {
    /// The media other crates keep for a user, deleted with the account.
    pub owned_media: OwnedMedia,
    /// What must be settled outside before an account goes.
    pub departures: Departures,
    /// What other crates keep for a user, in their data export.
    pub account_data: AccountData,
    /// The media other crates keep for an analysis, deleted with it.
    pub analysis_dependents: AnalysisDependents,
    /// What other crates hand over to an account as a browser signs up or signs in.
    pub arrivals: Arrivals,
}

/// Lists the media a user owns in another crate's tables (their analysis photos, say), so
/// that deleting the account deletes those files too. Crates built on `auth` register one
/// in [`OwnedMedia`]; their rows go with the user through `ON DELETE CASCADE`. It runs in
/// the deletion's transaction before the user's rows go, so it may also undo what those
/// rows counted elsewhere (the community takes the user's votes out of other setups' scores).
pub type MediaOfUser = fn(&mut DbConnection, UserId, DateTime<Utc>) -> Result<Vec<MediaKey>, DieselError>;

/// Every [`MediaOfUser`] of the application.
#[derive(Clone, Default)]
pub struct OwnedMedia(pub Vec<MediaOfUser>);

/// Something another crate must settle with an outside service before an account goes
/// (`credits` ends the member's Stripe subscription, so no one is charged for an account that
/// no longer exists). It answers why it could not (the error, kept for the log), and the
/// account then stays. It is given the process's handles, so it keeps none of its own.
pub type BeforeDeletion =
    Arc<dyn Fn(AppCtx, UserId) -> Pin<Box<dyn Future<Output = Result<(), Cause>>>> + Send + Sync>;

/// Every [`BeforeDeletion`] of the application.
#[derive(Clone, Default)]
pub struct Departures(pub Vec<BeforeDeletion>);

/// Why one part of an export could not be read (a query, a stored document that no longer
/// parses).
pub type SectionError = Box<dyn std::error::Error + Send + Sync>;

/// One part of the export, named as it appears in the file (`analyses`, `payments`, …).
#[derive(Debug, Clone)]
pub struct Section {
    pub name: &'static str,
    pub data: serde_json::Value,
}

impl Section {
    /// The part called `name`, holding `data` as it serialises.
    pub fn new<T: Serialize>(name: &'static str, data: &T) -> Result<Self, SectionError> {
        Ok(Self { name, data: serde_json::to_value(data)? })
    }
}

/// Reads what one crate keeps for a user, as one part of their export.
pub type SectionOfUser = fn(&mut DbConnection, UserId) -> Result<Section, SectionError>;

/// Every [`SectionOfUser`] of the application.
#[derive(Clone, Default)]
pub struct AccountData(pub Vec<SectionOfUser>);

/// Lists the media another crate keeps for an analysis (the photos of its community post,
/// say), so that deleting the analysis deletes those files too. Such rows go with the
/// analysis through `ON DELETE CASCADE`; the hook runs in the deletion's transaction,
/// before the analysis goes, while they can still be read.
pub type MediaOfAnalysis = fn(&mut DbConnection, AnalysisId) -> Result<Vec<MediaKey>, DieselError>;

/// Every [`MediaOfAnalysis`] of the application.
#[derive(Clone, Default)]
pub struct AnalysisDependents(pub Vec<MediaOfAnalysis>);

/// One crate's hand-over for the account `UserId` that the request just signed up or signed
/// in to: the analysis the visitor's free result became, if there was one to claim, or why
/// it failed. A hook reads what it needs from the request (its own cookie).
pub type OnArrival = Arc<
    dyn Fn(AppCtx, HttpRequest, UserId) -> Pin<Box<dyn Future<Output = Result<Option<AnalysisId>, String>>>>
        + Send
        + Sync,
>;

/// Every [`OnArrival`] of the application.
#[derive(Clone, Default)]
pub struct Arrivals(pub Vec<OnArrival>);
