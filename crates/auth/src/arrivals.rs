//! What other crates hand over to an account the moment a browser signs up or signs in to
//! it. `auth` knows none of them: the gateway registers each as an [`OnArrival`] hook
//! (`analysis` claims the free result the browser's visitor made just before, so that it is
//! saved to the account). A hook reads what it needs from the request (its own cookie).

use actix_web::HttpRequest;
use setupiq_core::{AnalysisId, UserId};
use setupiq_db::AppCtx;
pub use setupiq_db::hooks::{Arrivals, OnArrival};

/// Runs each of the application's [`OnArrival`]s in turn for the account `user_id` the
/// request just signed in to; returns the analysis a claimed visitor's result became. A
/// hook that fails is logged: the sign-up or sign-in never fails because of it.
pub async fn welcome(ctx: &AppCtx, req: &HttpRequest, user_id: UserId) -> Option<AnalysisId> {
    let mut claimed = None;
    for on_arrival in &ctx.hooks.arrivals.0 {
        match on_arrival(ctx.clone(), req.clone(), user_id).await {
            Ok(analysis) => claimed = claimed.or(analysis),
            Err(why) => {
                tracing::warn!(user_id = user_id.0, error = %why, "a sign-in hand-over failed; signed in without it")
            }
        }
    }
    claimed
}
