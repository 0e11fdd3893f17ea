//! The admin endpoints: analytics, link health, moderation, accounts and the admin log.
//! Every one takes an [`AdminUser`]: 401 signed out, 403 for any other role.

use actix_web::{get, post, web};
use setupiq_auth::AdminUser;
use setupiq_community::service::moderation::Decision;
use setupiq_core::feed_changes::FeedChanges;
use setupiq_core::openapi::{InvalidInput, NotSignedIn};
use setupiq_core::validation::{ValidJson, ValidQuery};
use setupiq_core::{ApiError, CommentId, Config, ErrorBody, ProductId, SetupId, SharedClock, UserId};
use setupiq_db::{AppCtx, Db};
use utoipa_actix_web::service_config::ServiceConfig;

use crate::dto::{
    AccountChangeDto, ActivateProductsResponse, AdminAccountDto, AdminUsersResponse, BulkUsersRequest,
    BulkUsersResponse, CategoryDto, CategoryQuery, ChangeAccountRequest, DailyClicksDto,
    DeactivateProductsResponse, DecideCommentRequest, DecideRequest, DecisionDto, GearClicksResponse,
    HealthReportDto, LogQuery, LogResponse, OkResponse, PeriodQuery, ProductIdRequest, ProductIdsRequest,
    ReplaceLinkRequest, ReportedCommentDto, ReportedSetupDto, SetActiveRequest, SummaryResponse,
    TopProductDto, TopProductsQuery, UserSearchQuery, VerificationResult, VerifyLinksRequest,
};
use crate::service::checker::CheckerConfig;
use crate::service::links::{self, LinkAction, LinkFilter};
use crate::service::log::{self, Actor};
use crate::service::{analytics, moderation, users};

pub fn configure(cfg: &mut ServiceConfig) {
    cfg.service(summary)
        .service(top_products)
        .service(category_performance)
        .service(daily_clicks)
        .service(gear_clicks)
        .service(link_health_report)
        .service(verify_links)
        .service(activate_products)
        .service(deactivate_products)
        .service(replace_link)
        .service(set_active)
        .service(expect_redirect)
        .service(reports_queue)
        .service(decide)
        .service(comment_reports_queue)
        .service(decide_comment)
        .service(find_users)
        .service(change_account)
        .service(bulk_users)
        .service(admin_log);
}

fn actor(admin: &AdminUser) -> (UserId, String) {
    (admin.0.id(), admin.0.account.username.clone())
}

/// Click totals, unique users and sessions and estimated revenue of the period.
#[utoipa::path(
    tag = "admin",
    params(PeriodQuery),
    security(("session" = [])),
    responses((status = 200, description = "The summary", body = SummaryResponse), NotSignedIn, (status = 403, description = "Not an admin", body = ErrorBody))
)]
#[get("/_api/analytics/summary")]
async fn summary(
    _admin: AdminUser,
    query: ValidQuery<PeriodQuery>,
    db: web::Data<Db>,
    clock: web::Data<SharedClock>,
    config: web::Data<Config>,
) -> Result<web::Json<SummaryResponse>, ApiError> {
    let (period, now, conversion) = (query.into_inner().period, clock.now(), config.affiliate_conversion_bp);
    let summary = db.run(move |conn| analytics::summary(conn, period, now, conversion)).await?;
    Ok(web::Json(summary.into()))
}

/// The most clicked products of the period.
#[utoipa::path(
    tag = "admin",
    params(TopProductsQuery),
    security(("session" = [])),
    responses((status = 200, description = "Products, most clicked first", body = Vec<TopProductDto>), InvalidInput, NotSignedIn, (status = 403, description = "Not an admin", body = ErrorBody))
)]
#[get("/_api/analytics/top-products")]
async fn top_products(
    _admin: AdminUser,
    query: ValidQuery<TopProductsQuery>,
    db: web::Data<Db>,
    clock: web::Data<SharedClock>,
    config: web::Data<Config>,
) -> Result<web::Json<Vec<TopProductDto>>, ApiError> {
    let query = query.into_inner();
    let (now, conversion) = (clock.now(), config.affiliate_conversion_bp);
    let limit = usize::try_from(query.limit).unwrap_or(5);
    let top = db.run(move |conn| analytics::top_products(conn, query.period, limit, now, conversion)).await?;
    Ok(web::Json(top.into_iter().map(TopProductDto::from).collect()))
}

/// Clicks, unique sessions and revenue per product category of the period.
#[utoipa::path(
    tag = "admin",
    params(CategoryQuery),
    security(("session" = [])),
    responses((status = 200, description = "Categories", body = Vec<CategoryDto>), InvalidInput, NotSignedIn, (status = 403, description = "Not an admin", body = ErrorBody))
)]
#[get("/_api/analytics/category-performance")]
async fn category_performance(
    _admin: AdminUser,
    query: ValidQuery<CategoryQuery>,
    db: web::Data<Db>,
    clock: web::Data<SharedClock>,
    config: web::Data<Config>,
) -> Result<web::Json<Vec<CategoryDto>>, ApiError> {
    let query = query.into_inner();
    let (now, conversion) = (clock.now(), config.affiliate_conversion_bp);
    let rows =
        db.run(move |conn| analytics::categories(conn, query.period, query.sort_by, now, conversion)).await?;
    Ok(web::Json(rows.into_iter().map(CategoryDto::from).collect()))
}

/// Counted clicks per UTC day of the period, for the chart.
#[utoipa::path(
    tag = "admin",
    params(PeriodQuery),
    security(("session" = [])),
    responses((status = 200, description = "One entry per day", body = Vec<DailyClicksDto>), NotSignedIn, (status = 403, description = "Not an admin", body = ErrorBody))
)]
#[get("/_api/analytics/daily-clicks")]
async fn daily_clicks(
    _admin: AdminUser,
    query: ValidQuery<PeriodQuery>,
    db: web::Data<Db>,
    clock: web::Data<SharedClock>,
) -> Result<web::Json<Vec<DailyClicksDto>>, ApiError> {
    let (period, now) = (query.into_inner().period, clock.now());
    let days = db.run(move |conn| analytics::daily_clicks(conn, period, now)).await?;
    Ok(web::Json(days.into_iter().map(|(day, clicks)| DailyClicksDto { day, clicks }).collect()))
}

/// People's clicks on the gear of community posts in the period, per gear category and per
/// network (bots never count, nor an owner's clicks on their own gear).
#[utoipa::path(
    tag = "admin",
    params(PeriodQuery),
    security(("session" = [])),
    responses((status = 200, description = "Gear clicks", body = GearClicksResponse), NotSignedIn, (status = 403, description = "Not an admin", body = ErrorBody))
)]
#[get("/_api/analytics/gear-clicks")]
async fn gear_clicks(
    _admin: AdminUser,
    query: ValidQuery<PeriodQuery>,
    db: web::Data<Db>,
    clock: web::Data<SharedClock>,
) -> Result<web::Json<GearClicksResponse>, ApiError> {
    let (period, now) = (query.into_inner().period, clock.now());
    let stats = db.run(move |conn| analytics::gear_clicks(conn, period, now)).await?;
    Ok(web::Json(stats.into()))
}

/// The state of the catalogue's links, the last runs and the links that need an admin.
#[utoipa::path(
    tag = "admin",
    security(("session" = [])),
    responses((status = 200, description = "The report", body = HealthReportDto), NotSignedIn, (status = 403, description = "Not an admin", body = ErrorBody))
)]
#[get("/_api/admin/link-health-report")]
async fn link_health_report(
    _admin: AdminUser,
    db: web::Data<Db>,
    clock: web::Data<SharedClock>,
    config: web::Data<Config>,
) -> Result<web::Json<HealthReportDto>, ApiError> {
    let (now, conversion) = (clock.now(), config.affiliate_conversion_bp);
    let report = db.run(move |conn| links::report(conn, now, conversion)).await?;
    Ok(web::Json(report.into()))
}

/// Checks the catalogue's links (optionally one category and one network) and records what
/// it finds; 409 while another run is under way. May take a few minutes.
#[utoipa::path(
    tag = "admin",
    request_body = VerifyLinksRequest,
    security(("session" = [])),
    responses(
        (status = 200, description = "What the run found", body = VerificationResult),
        InvalidInput,
        NotSignedIn,
        (status = 403, description = "Not an admin", body = ErrorBody),
        (status = 409, description = "A run is under way", body = ErrorBody),
        (status = 503, description = "Most links could not be checked from this server (no network): the run failed and changed nothing", body = ErrorBody),
    )
)]
#[post("/_api/admin/verify-links")]
async fn verify_links(
    admin: AdminUser,
    body: ValidJson<VerifyLinksRequest>,
    ctx: web::Data<AppCtx>,
    checker_config: web::Data<CheckerConfig>,
) -> Result<web::Json<VerificationResult>, ApiError> {
    let body = body.into_inner();
    let filter = LinkFilter { category: body.category, network: body.network };
    let found = links::verify(&ctx, &checker_config, actor(&admin), filter).await?;
    Ok(web::Json(found.into()))
}

async fn link_action(
    admin: &AdminUser,
    db: &Db,
    clock: &SharedClock,
    product_id: ProductId,
    action: LinkAction,
) -> Result<web::Json<OkResponse>, ApiError> {
    let (id, name) = actor(admin);
    let now = clock.now();
    db.run(move |conn| links::act(conn, Actor { id, username: &name }, product_id, &action, now)).await?;
    Ok(web::Json(OkResponse { success: true }))
}

/// Gives a product a new affiliate link; its health starts over.
#[utoipa::path(
    tag = "admin",
    request_body = ReplaceLinkRequest,
    security(("session" = [])),
    responses((status = 200, description = "Replaced", body = OkResponse), InvalidInput, NotSignedIn, (status = 403, description = "Not an admin", body = ErrorBody), (status = 404, description = "No such product", body = ErrorBody))
)]
#[post("/_api/admin/products/replace-link")]
async fn replace_link(
    admin: AdminUser,
    body: ValidJson<ReplaceLinkRequest>,
    db: web::Data<Db>,
    clock: web::Data<SharedClock>,
) -> Result<web::Json<OkResponse>, ApiError> {
    let body = body.into_inner();
    link_action(
        &admin,
        &db,
        &clock,
        ProductId(body.product_id),
        LinkAction::Replace(body.url.trim().to_owned()),
    )
    .await
}

/// Switches a product on or off in suggestions.
#[utoipa::path(
    tag = "admin",
    request_body = SetActiveRequest,
    security(("session" = [])),
    responses((status = 200, description = "Switched", body = OkResponse), InvalidInput, NotSignedIn, (status = 403, description = "Not an admin", body = ErrorBody), (status = 404, description = "No such product", body = ErrorBody))
)]
#[post("/_api/admin/products/set-active")]
async fn set_active(
    admin: AdminUser,
    body: ValidJson<SetActiveRequest>,
    db: web::Data<Db>,
    clock: web::Data<SharedClock>,
) -> Result<web::Json<OkResponse>, ApiError> {
    let body = body.into_inner();
    link_action(&admin, &db, &clock, ProductId(body.product_id), LinkAction::SetActive(body.active)).await
}

/// Switches on every chosen product that is off, its failure count started over (e.g. every
/// inactive one at once after a run on a bad network day).
#[utoipa::path(
    tag = "admin",
    request_body = ProductIdsRequest,
    security(("session" = [])),
    responses((status = 200, description = "How many were switched on", body = ActivateProductsResponse), InvalidInput, NotSignedIn, (status = 403, description = "Not an admin", body = ErrorBody))
)]
#[post("/_api/admin/products/activate")]
async fn activate_products(
    admin: AdminUser,
    body: ValidJson<ProductIdsRequest>,
    db: web::Data<Db>,
    clock: web::Data<SharedClock>,
) -> Result<web::Json<ActivateProductsResponse>, ApiError> {
    let activated = set_active_many(&admin, &db, &clock, body.into_inner(), true).await?;
    Ok(web::Json(ActivateProductsResponse { activated }))
}

/// Switches off every chosen product that is on (e.g. every dead link of a run at once);
/// each is logged.
#[utoipa::path(
    tag = "admin",
    request_body = ProductIdsRequest,
    security(("session" = [])),
    responses((status = 200, description = "How many were switched off", body = DeactivateProductsResponse), InvalidInput, NotSignedIn, (status = 403, description = "Not an admin", body = ErrorBody))
)]
#[post("/_api/admin/products/deactivate")]
async fn deactivate_products(
    admin: AdminUser,
    body: ValidJson<ProductIdsRequest>,
    db: web::Data<Db>,
    clock: web::Data<SharedClock>,
) -> Result<web::Json<DeactivateProductsResponse>, ApiError> {
    let deactivated = set_active_many(&admin, &db, &clock, body.into_inner(), false).await?;
    Ok(web::Json(DeactivateProductsResponse { deactivated }))
}

/// The bulk switch both handlers share: how many products changed.
async fn set_active_many(
    admin: &AdminUser,
    db: &Db,
    clock: &SharedClock,
    body: ProductIdsRequest,
    active: bool,
) -> Result<usize, ApiError> {
    let ((id, name), now) = (actor(admin), clock.now());
    let ids: Vec<ProductId> = body.product_ids.into_iter().map(ProductId).collect();
    Ok(db
        .run(move |conn| links::set_active_many(conn, Actor { id, username: &name }, &ids, active, now))
        .await?)
}

/// Accepts where a product's link now redirects (its last check's final address).
#[utoipa::path(
    tag = "admin",
    request_body = ProductIdRequest,
    security(("session" = [])),
    responses((status = 200, description = "Accepted", body = OkResponse), InvalidInput, NotSignedIn, (status = 403, description = "Not an admin", body = ErrorBody), (status = 404, description = "No such product", body = ErrorBody))
)]
#[post("/_api/admin/products/expect-redirect")]
async fn expect_redirect(
    admin: AdminUser,
    body: ValidJson<ProductIdRequest>,
    db: web::Data<Db>,
    clock: web::Data<SharedClock>,
) -> Result<web::Json<OkResponse>, ApiError> {
    link_action(&admin, &db, &clock, ProductId(body.into_inner().product_id), LinkAction::ExpectRedirect)
        .await
}

/// Setups with open reports, with the reports and who filed them.
#[utoipa::path(
    tag = "admin",
    security(("session" = [])),
    responses((status = 200, description = "The queue", body = Vec<ReportedSetupDto>), NotSignedIn, (status = 403, description = "Not an admin", body = ErrorBody))
)]
#[get("/_api/admin/reports")]
async fn reports_queue(
    _admin: AdminUser,
    db: web::Data<Db>,
) -> Result<web::Json<Vec<ReportedSetupDto>>, ApiError> {
    let queue = db.run(moderation::queue).await?;
    Ok(web::Json(queue.into_iter().map(ReportedSetupDto::from).collect()))
}

/// Dismisses a setup's reports (it is shown again) or removes the setup.
#[utoipa::path(
    tag = "admin",
    request_body = DecideRequest,
    security(("session" = [])),
    responses((status = 200, description = "Done", body = OkResponse), InvalidInput, NotSignedIn, (status = 403, description = "Not an admin", body = ErrorBody), (status = 404, description = "No such setup", body = ErrorBody))
)]
#[post("/_api/admin/reports/decide")]
async fn decide(
    admin: AdminUser,
    body: ValidJson<DecideRequest>,
    ctx: web::Data<AppCtx>,
) -> Result<web::Json<OkResponse>, ApiError> {
    let body = body.into_inner();
    let (decision, note, setup_id) = (decision_of(body.decision), note_of(body.note), SetupId(body.setup_id));
    moderation::decide_setup(&ctx, actor(&admin), setup_id, decision, note).await?;
    Ok(web::Json(OkResponse { success: true }))
}

fn decision_of(decision: DecisionDto) -> Decision {
    match decision {
        DecisionDto::Dismiss => Decision::Dismiss,
        DecisionDto::Remove => Decision::Remove,
    }
}

/// The admin's note for the log, if they wrote one.
fn note_of(note: Option<String>) -> Option<String> {
    note.map(|n| n.trim().to_owned()).filter(|n| !n.is_empty())
}

/// Comments with open reports, with the reports and who filed them.
#[utoipa::path(
    tag = "admin",
    security(("session" = [])),
    responses((status = 200, description = "The queue", body = Vec<ReportedCommentDto>), NotSignedIn, (status = 403, description = "Not an admin", body = ErrorBody))
)]
#[get("/_api/admin/comment-reports")]
async fn comment_reports_queue(
    _admin: AdminUser,
    db: web::Data<Db>,
) -> Result<web::Json<Vec<ReportedCommentDto>>, ApiError> {
    let queue = db.run(moderation::comment_queue).await?;
    Ok(web::Json(queue.into_iter().map(ReportedCommentDto::from).collect()))
}

/// Dismisses a comment's reports (it stays) or removes the comment.
#[utoipa::path(
    tag = "admin",
    request_body = DecideCommentRequest,
    security(("session" = [])),
    responses((status = 200, description = "Done", body = OkResponse), InvalidInput, NotSignedIn, (status = 403, description = "Not an admin", body = ErrorBody), (status = 404, description = "No such comment", body = ErrorBody))
)]
#[post("/_api/admin/comment-reports/decide")]
async fn decide_comment(
    admin: AdminUser,
    body: ValidJson<DecideCommentRequest>,
    db: web::Data<Db>,
    clock: web::Data<SharedClock>,
    changes: web::Data<FeedChanges>,
) -> Result<web::Json<OkResponse>, ApiError> {
    let body = body.into_inner();
    let (decision, note) = (decision_of(body.decision), note_of(body.note));
    let (id, name) = actor(&admin);
    let (now, changes) = (clock.now(), changes.get_ref().clone());
    db.run(move |conn| {
        let actor = Actor { id, username: &name };
        moderation::decide_comment(
            conn,
            actor,
            CommentId(body.comment_id),
            decision,
            note.as_deref(),
            now,
            &changes,
        )
    })
    .await?;
    Ok(web::Json(OkResponse { success: true }))
}

/// Accounts whose e-mail or username holds the query (none: every account), newest first,
/// 20 a page.
#[utoipa::path(
    tag = "admin",
    params(UserSearchQuery),
    security(("session" = [])),
    responses((status = 200, description = "A page of accounts", body = AdminUsersResponse), InvalidInput, NotSignedIn, (status = 403, description = "Not an admin", body = ErrorBody))
)]
#[get("/_api/admin/users")]
async fn find_users(
    _admin: AdminUser,
    query: ValidQuery<UserSearchQuery>,
    db: web::Data<Db>,
) -> Result<web::Json<AdminUsersResponse>, ApiError> {
    let UserSearchQuery { query, offset } = query.into_inner();
    let page = db.run(move |conn| users::search(conn, &query, offset)).await?;
    let shown = i64::try_from(page.accounts.len()).unwrap_or(i64::MAX);
    Ok(web::Json(AdminUsersResponse {
        users: page.accounts.into_iter().map(AdminAccountDto::from).collect(),
        total: page.total,
        limit: users::SEARCH_LIMIT,
        offset,
        has_more: offset.saturating_add(shown) < page.total,
    }))
}

/// Grants or revokes Pro or the admin role.
#[utoipa::path(
    tag = "admin",
    request_body = ChangeAccountRequest,
    security(("session" = [])),
    responses((status = 200, description = "The account now", body = AdminAccountDto), InvalidInput, NotSignedIn, (status = 403, description = "Not an admin, or one's own admin role", body = ErrorBody), (status = 404, description = "No such user", body = ErrorBody))
)]
#[post("/_api/admin/users/change")]
async fn change_account(
    admin: AdminUser,
    body: ValidJson<ChangeAccountRequest>,
    db: web::Data<Db>,
    clock: web::Data<SharedClock>,
) -> Result<web::Json<AdminAccountDto>, ApiError> {
    let body = body.into_inner();
    let change = match body.change {
        AccountChangeDto::GrantPro => users::Change::Pro(true),
        AccountChangeDto::RevokePro => users::Change::Pro(false),
        AccountChangeDto::GrantAdmin => users::Change::Admin(true),
        AccountChangeDto::RevokeAdmin => users::Change::Admin(false),
    };
    let (id, name) = actor(&admin);
    let now = clock.now();
    let account = db
        .run(move |conn| {
            users::change(conn, Actor { id, username: &name }, UserId(body.user_id), change, now)
        })
        .await?;
    Ok(web::Json(account.into()))
}

/// Grants or removes Pro, marks verified or deletes each of 1 to 50 chosen accounts (a
/// deletion is the member's own, with everything they kept); each account changed is logged.
/// An account that cannot or need not change is skipped with the reason (unknown, one's own
/// or another admin's account to delete, already so), never failing the others.
#[utoipa::path(
    tag = "admin",
    request_body = BulkUsersRequest,
    security(("session" = [])),
    responses((status = 200, description = "What became of each account", body = BulkUsersResponse), InvalidInput, NotSignedIn, (status = 403, description = "Not an admin", body = ErrorBody))
)]
#[post("/_api/admin/users/bulk")]
async fn bulk_users(
    admin: AdminUser,
    body: ValidJson<BulkUsersRequest>,
    ctx: web::Data<AppCtx>,
) -> Result<web::Json<BulkUsersResponse>, ApiError> {
    let body = body.into_inner();
    let user_ids = body.user_ids.into_iter().map(UserId).collect();
    let outcomes = users::bulk(&ctx, actor(&admin), user_ids, body.action.into()).await?;
    Ok(web::Json(outcomes.into()))
}

/// What admins did, newest first.
#[utoipa::path(
    tag = "admin",
    params(LogQuery),
    security(("session" = [])),
    responses((status = 200, description = "A page of the log", body = LogResponse), InvalidInput, NotSignedIn, (status = 403, description = "Not an admin", body = ErrorBody))
)]
#[get("/_api/admin/log")]
async fn admin_log(
    _admin: AdminUser,
    query: ValidQuery<LogQuery>,
    db: web::Data<Db>,
) -> Result<web::Json<LogResponse>, ApiError> {
    let query = query.into_inner();
    let (entries, total) = db.run(move |conn| log::page(conn, query.limit, query.offset)).await?;
    Ok(web::Json(LogResponse { entries: entries.into_iter().map(Into::into).collect(), total }))
}
