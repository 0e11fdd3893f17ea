//! The credit endpoints: packs, history, deductions, rewarded ads and payments.

use actix_web::{HttpRequest, HttpResponse, get, post, web};
use setupiq_auth::dto::EmptyRequest;
use setupiq_auth::{CurrentUser, OptionalUser};
use setupiq_core::UserId;
use setupiq_core::openapi::{InvalidInput, NotSignedIn};
use setupiq_core::validation::ValidJson;
use setupiq_core::{ApiError, Config, ErrorBody, SharedClock};
use setupiq_db::{AppCtx, Db};
use utoipa_actix_web::service_config::ServiceConfig;

use crate::dto::{
    AdStatsResponse, ConfirmPaymentRequest, ConfirmPaymentResponse, CreatePaymentIntentRequest,
    CreatePaymentIntentResponse, DeductRequest, DeductResponse, HistoryResponse, LedgerEntryDto, PackDto,
    PacksResponse, PaymentDto, PaymentsResponse, ProPlanDto, ProResponse, SubscribeRequest,
    SubscribeResponse, TestModePayRequest, TestModePayResponse, WatchAdRequest, WatchAdResponse,
    WatchAdStartResponse,
};
use crate::error::CreditsError;
use crate::payments::{PaymentStatus, test_mode};
use crate::service::pro::{self, Membership, Plan};
use crate::service::purchases::{self, PaymentProvider};
use crate::service::{ads, balance, packs, receipts};

/// Mounts the endpoints at their full `/_api/…` paths.
pub fn configure(cfg: &mut ServiceConfig) {
    cfg.service(list_packs)
        .service(history)
        .service(deduct)
        .service(ad_stats)
        .service(start_ad)
        .service(watch_ad)
        .service(create_payment_intent)
        .service(confirm_payment)
        .service(test_mode_pay)
        .service(list_payments)
        .service(pro_state)
        .service(subscribe)
        .service(cancel_pro)
        .service(resume_pro)
        .service(receipt)
        .service(stripe_webhook);
}

/// The credit packs for sale (the one source of prices), and whether payments run in test mode.
#[utoipa::path(tag = "credits", responses((status = 200, description = "Packs", body = PacksResponse)))]
#[get("/_api/credits/packs")]
async fn list_packs(
    provider: web::Data<PaymentProvider>,
    config: web::Data<Config>,
) -> web::Json<PacksResponse> {
    web::Json(PacksResponse {
        packs: packs::PACKS.into_iter().map(PackDto::from).collect(),
        test_mode: provider.is_test_mode(),
        publishable_key: if provider.is_test_mode() { None } else { config.stripe.publishable_key.clone() },
    })
}

/// The signed-in user's latest balance changes, newest first.
#[utoipa::path(
    tag = "credits",
    security(("session" = [])),
    responses(
        (status = 200, description = "History", body = HistoryResponse),
        NotSignedIn,
    )
)]
#[get("/_api/credits/history")]
async fn history(user: CurrentUser, db: web::Data<Db>) -> Result<web::Json<HistoryResponse>, ApiError> {
    let user_id = user.id();
    let entries = db.run(move |conn| balance::history(conn, user_id)).await?;
    Ok(web::Json(HistoryResponse { entries: entries.into_iter().map(LedgerEntryDto::from).collect() }))
}

/// Spends credits for a reason (e.g. publishing a RigPage); never beyond the balance.
#[utoipa::path(
    tag = "credits",
    security(("session" = [])),
    request_body = DeductRequest,
    responses(
        (status = 200, description = "Deducted", body = DeductResponse),
        (status = 400, description = "Invalid amount or reason", body = ErrorBody),
        NotSignedIn,
        (status = 402, description = "Not enough credits", body = ErrorBody),
    )
)]
#[post("/_api/credits/deduct")]
async fn deduct(
    user: CurrentUser,
    body: ValidJson<DeductRequest>,
    db: web::Data<Db>,
    clock: web::Data<SharedClock>,
) -> Result<web::Json<DeductResponse>, ApiError> {
    let body = body.into_inner();
    let (user_id, clock) = (user.id(), clock.get_ref().clone());
    let credits = db
        .run(move |conn| balance::deduct(conn, user_id, body.amount, body.reason.trim(), clock.now()))
        .await?;
    Ok(web::Json(DeductResponse { success: true, credits }))
}

/// Today's rewarded-ad standing of the signed-in user.
#[utoipa::path(
    tag = "credits",
    security(("session" = [])),
    responses(
        (status = 200, description = "Stats", body = AdStatsResponse),
        NotSignedIn,
    )
)]
#[get("/_api/credits/ad-stats")]
async fn ad_stats(
    user: CurrentUser,
    db: web::Data<Db>,
    clock: web::Data<SharedClock>,
) -> Result<web::Json<AdStatsResponse>, ApiError> {
    let (user_id, clock) = (user.id(), clock.get_ref().clone());
    let stats = db.run(move |conn| ads::stats(conn, user_id, clock.now())).await?;
    Ok(web::Json(stats.into()))
}

/// Starts a rewarded ad; returns the token that claims it after 3 seconds.
#[utoipa::path(
    tag = "credits",
    security(("session" = [])),
    responses(
        (status = 200, description = "Started", body = WatchAdStartResponse),
        NotSignedIn,
        (status = 429, description = "Daily ad watch limit reached", body = ErrorBody),
    )
)]
#[post("/_api/watch-ad/start")]
async fn start_ad(
    user: CurrentUser,
    db: web::Data<Db>,
    clock: web::Data<SharedClock>,
) -> Result<web::Json<WatchAdStartResponse>, ApiError> {
    let (user_id, clock) = (user.id(), clock.get_ref().clone());
    let ad_token = db.run(move |conn| ads::start(conn, user_id, clock.now())).await?;
    Ok(web::Json(WatchAdStartResponse { ad_token }))
}

/// Counts a watched ad (once, at least 3 s after its start); every third earns a credit.
#[utoipa::path(
    tag = "credits",
    security(("session" = [])),
    request_body = WatchAdRequest,
    responses(
        (status = 200, description = "Counted", body = WatchAdResponse),
        (status = 400, description = "Unknown token or ad not watched long enough", body = ErrorBody),
        NotSignedIn,
        (status = 409, description = "Already counted", body = ErrorBody),
        (status = 429, description = "Daily ad watch limit reached", body = ErrorBody),
    )
)]
#[post("/_api/watch-ad")]
async fn watch_ad(
    user: CurrentUser,
    body: ValidJson<WatchAdRequest>,
    db: web::Data<Db>,
    clock: web::Data<SharedClock>,
) -> Result<web::Json<WatchAdResponse>, ApiError> {
    let body = body.into_inner();
    let (user_id, clock) = (user.id(), clock.get_ref().clone());
    let reward = db.run(move |conn| ads::claim(conn, user_id, &body.ad_token, clock.now())).await?;
    Ok(web::Json(reward.into()))
}

/// Starts buying a pack: creates the payment intent the card form confirms.
#[utoipa::path(
    tag = "payments",
    security(("session" = [])),
    request_body = CreatePaymentIntentRequest,
    responses(
        (status = 200, description = "Intent created", body = CreatePaymentIntentResponse),
        (status = 400, description = "Unknown pack", body = ErrorBody),
        NotSignedIn,
        (status = 502, description = "The payment provider failed", body = ErrorBody),
    )
)]
#[post("/_api/stripe/create-payment-intent")]
async fn create_payment_intent(
    user: CurrentUser,
    body: ValidJson<CreatePaymentIntentRequest>,
    ctx: web::Data<AppCtx>,
    provider: web::Data<PaymentProvider>,
) -> Result<web::Json<CreatePaymentIntentResponse>, ApiError> {
    let started = purchases::create(&ctx, &provider, user.id(), &body.package_id).await?;
    Ok(web::Json(CreatePaymentIntentResponse {
        client_secret: started.client_secret,
        payment_intent_id: started.intent_id,
        test_mode: provider.is_test_mode(),
    }))
}

/// Credits a paid intent of the signed-in user, once, if the provider reports it succeeded.
/// The call that credits it (this one or Stripe's webhook) e-mails the receipt.
#[utoipa::path(
    tag = "payments",
    security(("session" = [])),
    request_body = ConfirmPaymentRequest,
    responses(
        (status = 200, description = "Credited (or already credited)", body = ConfirmPaymentResponse),
        NotSignedIn,
        (status = 402, description = "The payment did not succeed", body = ErrorBody),
        (status = 404, description = "No such payment of this user", body = ErrorBody),
        (status = 409, description = "A Pro checkout replaced by a newer one, or paid while already Pro (the payment is refunded)", body = ErrorBody),
    )
)]
#[post("/_api/stripe/confirm-payment")]
async fn confirm_payment(
    user: CurrentUser,
    body: ValidJson<ConfirmPaymentRequest>,
    ctx: web::Data<AppCtx>,
    provider: web::Data<PaymentProvider>,
) -> Result<web::Json<ConfirmPaymentResponse>, ApiError> {
    let body = body.into_inner();
    let done = purchases::confirm(&ctx, &provider, user.id(), body.payment_intent_id).await?;
    Ok(web::Json(ConfirmPaymentResponse {
        credits_added: done.credits_added,
        new_balance: done.new_balance,
        pro_until: done.pro_until,
    }))
}

/// Test mode only: pays an intent with a test card (4242… succeeds, 4000 0000 0000 0002 is declined).
#[utoipa::path(
    tag = "payments",
    security(("session" = [])),
    request_body = TestModePayRequest,
    responses(
        (status = 200, description = "Paid", body = TestModePayResponse),
        (status = 400, description = "Invalid card number", body = ErrorBody),
        (status = 402, description = "Card declined", body = ErrorBody),
        (status = 404, description = "Not in test mode, or no such payment", body = ErrorBody),
        (status = 409, description = "A Pro checkout replaced by a newer one, or the member is Pro already: nothing is paid", body = ErrorBody),
    )
)]
#[post("/_api/stripe/test-mode/pay")]
async fn test_mode_pay(
    user: CurrentUser,
    body: ValidJson<TestModePayRequest>,
    db: web::Data<Db>,
    clock: web::Data<SharedClock>,
    provider: web::Data<PaymentProvider>,
) -> Result<web::Json<TestModePayResponse>, ApiError> {
    if !provider.is_test_mode() {
        return Err(CreditsError::TestModeUnavailable.into());
    }
    let body = body.into_inner();
    let (user_id, clock) = (user.id(), clock.get_ref().clone());
    db.run(move |conn| {
        test_mode::pay(conn, user_id, &body.payment_intent_id, &body.card_number, clock.now())
    })
    .await?;
    Ok(web::Json(TestModePayResponse { status: PaymentStatus::Succeeded.as_str().into() }))
}

fn pro_response(provider: &PaymentProvider, config: &Config, membership: Option<Membership>) -> ProResponse {
    let plans = Plan::ALL
        .into_iter()
        .map(|plan| ProPlanDto {
            plan,
            name: plan.name().to_owned(),
            price_cents: plan.price_cents(config.pro_prices),
            currency: packs::CURRENCY.to_owned(),
            interval: plan.interval(),
        })
        .collect();
    let membership = membership.unwrap_or(Membership { is_pro: false, granted: false, subscription: None });
    ProResponse {
        plans,
        test_mode: provider.is_test_mode(),
        publishable_key: if provider.is_test_mode() { None } else { config.stripe.publishable_key.clone() },
        is_pro: membership.is_pro,
        granted_by_admin: membership.granted,
        subscription: membership.subscription.map(Into::into),
    }
}

/// The Pro plans for sale and, signed in, the viewer's own membership: plan, status, the
/// end of the paid period and whether it was cancelled. A period that is over is settled
/// first (renewed, or ended after a cancel).
#[utoipa::path(tag = "payments", responses((status = 200, description = "Pro", body = ProResponse)))]
#[get("/_api/pro")]
async fn pro_state(
    user: OptionalUser,
    ctx: web::Data<AppCtx>,
    provider: web::Data<PaymentProvider>,
) -> Result<web::Json<ProResponse>, ApiError> {
    let AppCtx { db, config, .. } = &**ctx;
    let membership = match user.0 {
        None => None,
        Some(user) => {
            let user_id = user.id();
            pro::settle(&ctx, &provider, Some(user_id)).await?;
            Some(db.run(move |conn| pro::membership(conn, user_id)).await?)
        }
    };
    Ok(web::Json(pro_response(&provider, config, membership)))
}

/// Starts a Pro subscription to `plan`: answers the first period's payment, which the card
/// form pays and `POST /_api/stripe/confirm-payment` confirms exactly as for a pack (its
/// answer carries `proUntil`). Asked again before paying, the same payment is answered.
#[utoipa::path(
    tag = "payments",
    security(("session" = [])),
    request_body = SubscribeRequest,
    responses(
        (status = 200, description = "Waiting for the first payment", body = SubscribeResponse),
        InvalidInput,
        NotSignedIn,
        (status = 409, description = "Already subscribed", body = ErrorBody),
        (status = 503, description = "Not sold with this payment provider yet", body = ErrorBody),
    )
)]
#[post("/_api/pro/subscribe")]
async fn subscribe(
    user: CurrentUser,
    body: ValidJson<SubscribeRequest>,
    ctx: web::Data<AppCtx>,
    provider: web::Data<PaymentProvider>,
) -> Result<web::Json<SubscribeResponse>, ApiError> {
    let plan = body.into_inner().plan;
    let started = pro::subscribe(&ctx, &provider, user.id(), plan).await?;
    Ok(web::Json(SubscribeResponse {
        subscription_id: started.subscription_id,
        payment_intent_id: started.intent_id,
        client_secret: started.client_secret,
        test_mode: provider.is_test_mode(),
    }))
}

/// Cancels the subscription at the end of the paid period: Pro stays until then.
#[utoipa::path(
    tag = "payments",
    security(("session" = [])),
    request_body = EmptyRequest,
    responses(
        (status = 200, description = "Cancelled at the period's end", body = ProResponse),
        InvalidInput,
        NotSignedIn,
        (status = 404, description = "No running subscription", body = ErrorBody),
    )
)]
#[post("/_api/pro/cancel")]
async fn cancel_pro(
    user: CurrentUser,
    _body: ValidJson<EmptyRequest>,
    ctx: web::Data<AppCtx>,
    provider: web::Data<PaymentProvider>,
) -> Result<web::Json<ProResponse>, ApiError> {
    let AppCtx { db, config, .. } = &**ctx;
    pro::cancel(&ctx, &provider, user.id()).await?;
    membership_response(user.id(), db, &provider, config).await
}

/// Takes back a cancel before the paid period ends: the subscription renews as before.
#[utoipa::path(
    tag = "payments",
    security(("session" = [])),
    request_body = EmptyRequest,
    responses(
        (status = 200, description = "Renews again", body = ProResponse),
        InvalidInput,
        NotSignedIn,
        (status = 404, description = "No running subscription", body = ErrorBody),
    )
)]
#[post("/_api/pro/resume")]
async fn resume_pro(
    user: CurrentUser,
    _body: ValidJson<EmptyRequest>,
    ctx: web::Data<AppCtx>,
    provider: web::Data<PaymentProvider>,
) -> Result<web::Json<ProResponse>, ApiError> {
    let AppCtx { db, config, .. } = &**ctx;
    pro::resume(&ctx, &provider, user.id()).await?;
    membership_response(user.id(), db, &provider, config).await
}

/// The member's Pro as `GET /_api/pro` answers it.
async fn membership_response(
    user_id: UserId,
    db: &Db,
    provider: &PaymentProvider,
    config: &Config,
) -> Result<web::Json<ProResponse>, ApiError> {
    let membership = db.run(move |conn| pro::membership(conn, user_id)).await?;
    Ok(web::Json(pro_response(provider, config, Some(membership))))
}

/// The signed-in user's card payments, newest first (paid ones have a receipt).
#[utoipa::path(
    tag = "payments",
    security(("session" = [])),
    responses((status = 200, description = "Payments", body = PaymentsResponse), NotSignedIn)
)]
#[get("/_api/credits/payments")]
async fn list_payments(
    user: CurrentUser,
    db: web::Data<Db>,
) -> Result<web::Json<PaymentsResponse>, ApiError> {
    let user_id = user.id();
    let payments = db.run(move |conn| receipts::list(conn, user_id)).await?;
    Ok(web::Json(PaymentsResponse { payments: payments.into_iter().map(Into::into).collect() }))
}

/// The receipt of one of the signed-in user's paid payments, by its reference.
#[utoipa::path(
    tag = "payments",
    security(("session" = [])),
    params(("reference" = String, Path, description = "The payment's reference (receipt number)")),
    responses(
        (status = 200, description = "The paid payment", body = PaymentDto),
        NotSignedIn,
        (status = 404, description = "No paid payment of this user with that reference", body = ErrorBody),
    )
)]
#[get("/_api/credits/payments/{reference}")]
async fn receipt(
    user: CurrentUser,
    reference: web::Path<String>,
    db: web::Data<Db>,
) -> Result<web::Json<PaymentDto>, ApiError> {
    let (user_id, reference) = (user.id(), reference.into_inner());
    let payment = db.run(move |conn| receipts::receipt(conn, user_id, &reference)).await?;
    Ok(web::Json(payment.into()))
}

/// Stripe's webhook: `payment_intent.succeeded` credits the purchase (signature verified)
/// and, when it is the first to, e-mails the receipt.
#[utoipa::path(
    tag = "payments",
    request_body(content = String, description = "The raw event, signed in the `Stripe-Signature` header"),
    responses(
        (status = 200, description = "Handled (or already handled)"),
        (status = 400, description = "Bad or stale signature", body = ErrorBody),
        (status = 404, description = "Webhooks not configured", body = ErrorBody),
    )
)]
#[post("/_api/stripe/webhook")]
async fn stripe_webhook(
    req: HttpRequest,
    body: web::Bytes,
    ctx: web::Data<AppCtx>,
    provider: web::Data<PaymentProvider>,
) -> Result<HttpResponse, ApiError> {
    let signature = req.headers().get("stripe-signature").and_then(|v| v.to_str().ok()).map(str::to_owned);
    purchases::handle_webhook(&ctx, &provider, body.to_vec(), signature).await?;
    Ok(HttpResponse::Ok().json(serde_json::json!({ "received": true })))
}
