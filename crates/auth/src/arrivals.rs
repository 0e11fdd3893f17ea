//! What other crates hand over to an account the moment a browser signs up or signs in to
//! it. `auth` knows none of them: the gateway registers each as an [`OnArrival`] hook
//! (`analysis` claims the free result the browser's visitor made just before, so that it is
//! saved to the account). A hook reads what it needs from the request (its own cookie).

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use actix_web::HttpRequest;
use setupiq_core::{AnalysisId, UserId};

/// One crate's hand-over for the account `UserId` that the request just signed up or signed
/// in to: the analysis the visitor's free result became, if there was one to claim, or why
/// it failed.
pub type OnArrival =
    Arc<dyn Fn(HttpRequest, UserId) -> Pin<Box<dyn Future<Output = Result<Option<AnalysisId>, String>>>>>;

/// Every [`OnArrival`] of the application (shared state of the sign-up and sign-in handlers).
#[derive(Clone, Default)]
pub struct Arrivals(pub Vec<OnArrival>);

impl Arrivals {
    /// Runs each in turn for the account `user_id` the request just signed in to; returns
    /// the analysis a claimed visitor's result became. A hook that fails is logged: the
    /// sign-up or sign-in never fails because of it.
    pub async fn welcome(&self, req: &HttpRequest, user_id: UserId) -> Option<AnalysisId> {
        let mut claimed = None;
        for on_arrival in &self.0 {
            match on_arrival(req.clone(), user_id).await {
                Ok(analysis) => claimed = claimed.or(analysis),
                Err(why) => {
                    tracing::warn!(user_id = user_id.0, error = %why, "a sign-in hand-over failed; signed in without it")
                }
            }
        }
        claimed
    }
}

/// The request's [`Arrivals`], if the application registered any.
pub async fn welcome(req: &HttpRequest, user_id: UserId) -> Option<AnalysisId> {
    match req.app_data::<actix_web::web::Data<Arrivals>>() {
        Some(arrivals) => arrivals.welcome(req, user_id).await,
        None => None,
    }
}
