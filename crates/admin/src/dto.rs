//! Request and response bodies of the admin endpoints. Money is computed in integer cents;
//! each amount is sent in cents and, for the spec's fields, in dollars.

use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use setupiq_auth::{Account, Role};
use setupiq_community::service::gear::{GearCategory, GearClickStats};
use setupiq_community::service::moderation::{OpenReport, ReportedComment, ReportedSetup};
use setupiq_community::service::reports::ReportReason;
use utoipa::{IntoParams, ToSchema};
use validator::{Validate, ValidationError};

use crate::service::analytics::{CategoryPerformance, CategorySort, Period, ProductPerformance, Summary};
use crate::service::checker::Hop;
use crate::service::links::{
    Category, DeadLink, Health, HealthReport, LinkProblem, LinkVerdict, Network, Run, RunCounts, RunStatus,
    RunSummary,
};
use crate::service::log::{Action, Entry, TargetKind};
use crate::service::users::{BulkAction, BulkChange, BulkOutcome, Skip};

#[allow(clippy::cast_precision_loss)] // cents far below 2^52
fn dollars(cents: i64) -> f64 {
    cents as f64 / 100.0
}

fn http_url(value: &str) -> Result<(), ValidationError> {
    match url::Url::parse(value.trim()) {
        Ok(url)
            if matches!(url.scheme(), "http" | "https") && url.host().is_some() && value.len() <= 2048 =>
        {
            Ok(())
        }
        _ => Err(ValidationError::new("url").with_message("Please enter a valid URL.".into())),
    }
}

#[derive(Debug, Deserialize, IntoParams, Validate)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct PeriodQuery {
    /// `7d`, `30d`, `90d` or `all` (default).
    #[serde(default)]
    pub period: Period,
}

/// One gear category's clicks.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GearCategoryClicksDto {
    pub category: GearCategory,
    pub clicks: i64,
}

/// One network's gear clicks.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GearNetworkClicksDto {
    pub network: Network,
    pub clicks: i64,
}

/// People's clicks on the gear of community posts in the period.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GearClicksResponse {
    pub total_clicks: i64,
    /// Most clicked first; categories nobody clicked are left out.
    pub by_category: Vec<GearCategoryClicksDto>,
    /// Most clicked first: the catalogue product's network, or the shop the owner's link names
    /// (`Other` for any other shop).
    pub by_network: Vec<GearNetworkClicksDto>,
}

impl From<GearClickStats> for GearClicksResponse {
    fn from(stats: GearClickStats) -> Self {
        let mut by_network: Vec<GearNetworkClicksDto> = Vec::new();
        for (key, clicks) in stats.by_network {
            let network = Network::from_key(&key);
            match by_network.iter_mut().find(|n| n.network == network) {
                Some(seen) => seen.clicks += clicks,
                None => by_network.push(GearNetworkClicksDto { network, clicks }),
            }
        }
        by_network.sort_by_key(|n| std::cmp::Reverse(n.clicks));
        Self {
            total_clicks: stats.total,
            by_category: stats
                .by_category
                .into_iter()
                .map(|(category, clicks)| GearCategoryClicksDto { category, clicks })
                .collect(),
            by_network,
        }
    }
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SummaryResponse {
    pub total_clicks: i64,
    pub unique_users: i64,
    pub unique_sessions: i64,
    /// US dollars.
    pub estimated_revenue: f64,
    pub estimated_revenue_cents: i64,
}

impl From<Summary> for SummaryResponse {
    fn from(s: Summary) -> Self {
        Self {
            total_clicks: s.total_clicks,
            unique_users: s.unique_users,
            unique_sessions: s.unique_sessions,
            estimated_revenue: dollars(s.estimated_revenue_cents),
            estimated_revenue_cents: s.estimated_revenue_cents,
        }
    }
}

#[derive(Debug, Deserialize, IntoParams, Validate)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct TopProductsQuery {
    /// A positive integer (default 5, at most 100).
    #[serde(default = "default_top")]
    #[validate(range(min = 1, max = 100, message = "Limit must be a positive integer."))]
    #[param(minimum = 1, maximum = 100)]
    pub limit: i64,
    #[serde(default)]
    pub period: Period,
}

fn default_top() -> i64 {
    5
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TopProductDto {
    pub id: i64,
    pub name: String,
    pub category: String,
    pub click_count: i64,
    pub estimated_revenue: f64,
    pub estimated_revenue_cents: i64,
}

impl From<ProductPerformance> for TopProductDto {
    fn from(p: ProductPerformance) -> Self {
        Self {
            id: p.id.0,
            name: p.name,
            category: p.category,
            click_count: p.clicks,
            estimated_revenue: dollars(p.estimated_revenue_cents),
            estimated_revenue_cents: p.estimated_revenue_cents,
        }
    }
}

#[derive(Debug, Deserialize, IntoParams, Validate)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
#[into_params(parameter_in = Query, rename_all = "camelCase")]
pub struct CategoryQuery {
    /// `category`, `clickCount` (default), `uniqueSessions` or `estimatedRevenue`.
    #[serde(default)]
    pub sort_by: CategorySort,
    #[serde(default)]
    pub period: Period,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CategoryDto {
    pub category: String,
    pub click_count: i64,
    pub unique_sessions: i64,
    pub estimated_revenue: f64,
    pub estimated_revenue_cents: i64,
}

impl From<CategoryPerformance> for CategoryDto {
    fn from(c: CategoryPerformance) -> Self {
        Self {
            category: c.category,
            click_count: c.clicks,
            unique_sessions: c.unique_sessions,
            estimated_revenue: dollars(c.estimated_revenue_cents),
            estimated_revenue_cents: c.estimated_revenue_cents,
        }
    }
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DailyClicksDto {
    pub day: NaiveDate,
    pub clicks: i64,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RunDto {
    pub id: i64,
    pub status: RunStatus,
    pub category: Option<String>,
    pub network: Option<String>,
    pub started_at: DateTime<Utc>,
    pub finished_at: Option<DateTime<Utc>>,
    #[serde(flatten)]
    pub counts: RunCounts,
    /// Why a `failed` run failed, e.g. that most links could not be checked.
    pub failure_reason: Option<String>,
}

impl From<Run> for RunDto {
    fn from(r: Run) -> Self {
        Self {
            id: r.id.0,
            status: r.status,
            category: r.category,
            network: r.network,
            started_at: r.started_at,
            finished_at: r.finished_at,
            counts: r.counts,
            failure_reason: r.failure_reason,
        }
    }
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct HopDto {
    pub url: String,
    pub status: Option<u16>,
}

impl From<Hop> for HopDto {
    fn from(h: Hop) -> Self {
        Self { url: h.url, status: h.status }
    }
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LinkProblemDto {
    pub product_id: i64,
    pub name: String,
    pub category: String,
    pub network: String,
    pub url: String,
    /// `unknown` is a bot-check page, or a link that could not be checked; none before a check.
    pub health: Option<Health>,
    /// What the last check saw; none before a check.
    pub verdict: Option<LinkVerdict>,
    pub status_code: Option<i32>,
    pub final_url: Option<String>,
    pub chain: Vec<HopDto>,
    pub consecutive_failures: i32,
    pub is_active: bool,
    pub checked_at: Option<DateTime<Utc>>,
    pub revenue_at_risk: f64,
    pub revenue_at_risk_cents: i64,
}

impl From<LinkProblem> for LinkProblemDto {
    fn from(p: LinkProblem) -> Self {
        Self {
            product_id: p.product_id.0,
            name: p.name,
            category: p.category,
            network: p.network,
            url: p.url,
            health: p.health,
            verdict: p.verdict,
            status_code: p.status_code,
            final_url: p.final_url,
            chain: p.chain.into_iter().map(HopDto::from).collect(),
            consecutive_failures: p.consecutive_failures,
            is_active: p.is_active,
            checked_at: p.checked_at,
            revenue_at_risk: dollars(p.revenue_at_risk_cents),
            revenue_at_risk_cents: p.revenue_at_risk_cents,
        }
    }
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct HealthReportDto {
    pub total: i64,
    pub active: i64,
    pub inactive: i64,
    pub never_verified: i64,
    /// When the last run finished (or started, while it runs); none before the first.
    pub last_verification_run: Option<DateTime<Utc>>,
    pub last_run: Option<RunDto>,
    pub recent_runs: Vec<RunDto>,
    /// Dead, warning, unknown or switched-off links, most revenue at risk first.
    pub problems: Vec<LinkProblemDto>,
}

impl From<HealthReport> for HealthReportDto {
    fn from(r: HealthReport) -> Self {
        Self {
            total: r.total,
            active: r.active,
            inactive: r.inactive,
            never_verified: r.never_verified,
            last_verification_run: r.last_run.as_ref().map(|run| run.finished_at.unwrap_or(run.started_at)),
            last_run: r.last_run.map(RunDto::from),
            recent_runs: r.recent_runs.into_iter().map(RunDto::from).collect(),
            problems: r.problems.into_iter().map(LinkProblemDto::from).collect(),
        }
    }
}

/// Which links to verify (none: all).
#[derive(Debug, Default, Deserialize, Validate, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct VerifyLinksRequest {
    pub category: Option<Category>,
    pub network: Option<Network>,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DeadLinkDto {
    pub product_id: i64,
    pub url: String,
    pub status_code: Option<u16>,
    pub verdict: LinkVerdict,
}

impl From<DeadLink> for DeadLinkDto {
    fn from(d: DeadLink) -> Self {
        Self { product_id: d.product_id.0, url: d.url, status_code: d.status_code, verdict: d.verdict }
    }
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct VerificationResult {
    pub run_id: i64,
    #[serde(flatten)]
    pub counts: RunCounts,
    /// Dead, erroring and timing-out links.
    pub dead_links: Vec<DeadLinkDto>,
}

impl From<RunSummary> for VerificationResult {
    fn from(s: RunSummary) -> Self {
        Self {
            run_id: s.run_id.0,
            counts: s.counts,
            dead_links: s.dead_links.into_iter().map(DeadLinkDto::from).collect(),
        }
    }
}

#[derive(Debug, Deserialize, Validate, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ProductIdRequest {
    #[validate(range(min = 1, message = "Product ID must be a positive integer."))]
    #[schema(minimum = 1)]
    pub product_id: i64,
}

#[derive(Debug, Deserialize, Validate, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ReplaceLinkRequest {
    #[validate(range(min = 1, message = "Product ID must be a positive integer."))]
    #[schema(minimum = 1)]
    pub product_id: i64,
    /// An http or https address.
    #[validate(custom(function = "http_url"))]
    #[schema(
        max_length = 2048,
        pattern = "^https?://([A-Za-z0-9-]+\\.)*[A-Za-z][A-Za-z0-9-]*([/?#][!-~]*)?$"
    )]
    pub url: String,
}

#[derive(Debug, Deserialize, Validate, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct SetActiveRequest {
    #[validate(range(min = 1, message = "Product ID must be a positive integer."))]
    #[schema(minimum = 1)]
    pub product_id: i64,
    pub active: bool,
}

/// Products to switch on or off at once, e.g. every inactive one after a bad run, or every
/// dead link of a run.
#[derive(Debug, Deserialize, Validate, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ProductIdsRequest {
    #[validate(
        length(min = 1, max = 1000, message = "Choose between 1 and 1000 products."),
        custom(function = "positive_ids")
    )]
    #[schema(min_items = 1, max_items = 1000, value_type = Vec<ProductId>)]
    pub product_ids: Vec<i64>,
}

/// The schema of an id a bulk request lists: a 64-bit integer from 1.
fn positive_id() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
    utoipa::openapi::ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::Type::Integer)
        .format(Some(utoipa::openapi::SchemaFormat::KnownFormat(utoipa::openapi::KnownFormat::Int64)))
        .minimum(Some(1))
        .into()
}

/// A product id as the document states it ([`positive_ids`]); the request carries numbers.
pub struct ProductId;

impl utoipa::PartialSchema for ProductId {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        positive_id()
    }
}

impl ToSchema for ProductId {}

fn positive_ids(ids: &[i64]) -> Result<(), ValidationError> {
    if ids.iter().all(|&id| id >= 1) {
        Ok(())
    } else {
        Err(ValidationError::new("range").with_message("Product ID must be a positive integer.".into()))
    }
}

/// How many of the chosen products were switched on (those already on are left as they are).
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ActivateProductsResponse {
    pub activated: usize,
}

/// How many of the chosen products were switched off (those already off are left as they are).
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DeactivateProductsResponse {
    pub deactivated: usize,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OkResponse {
    pub success: bool,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OpenReportDto {
    pub reporter_id: i64,
    pub reporter_username: String,
    pub reporter_email: String,
    pub reason: ReportReason,
    pub details: Option<String>,
    pub created_at: DateTime<Utc>,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReasonCountDto {
    pub reason: ReportReason,
    pub count: usize,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReportedSetupDto {
    pub setup_id: i64,
    pub title: Option<String>,
    pub thumbnail_url: Option<String>,
    pub uploader_id: i64,
    pub uploader_username: String,
    pub hidden: bool,
    pub score: i32,
    pub published_at: DateTime<Utc>,
    pub reasons: Vec<ReasonCountDto>,
    pub reports: Vec<OpenReportDto>,
}

impl From<ReportedSetup> for ReportedSetupDto {
    fn from(s: ReportedSetup) -> Self {
        Self {
            reasons: s
                .reasons()
                .into_iter()
                .map(|(reason, count)| ReasonCountDto { reason, count })
                .collect(),
            setup_id: s.setup_id.0,
            title: s.title,
            thumbnail_url: s.thumbnail_url,
            uploader_id: s.uploader_id.0,
            uploader_username: s.uploader_username,
            hidden: s.hidden,
            score: s.score,
            published_at: s.published_at,
            reports: s.reports.into_iter().map(OpenReportDto::from).collect(),
        }
    }
}

impl From<OpenReport> for OpenReportDto {
    fn from(r: OpenReport) -> Self {
        Self {
            reporter_id: r.reporter_id.0,
            reporter_username: r.reporter_username,
            reporter_email: r.reporter_email,
            reason: r.reason,
            details: r.details,
            created_at: r.created_at,
        }
    }
}

/// A reported comment with its open reports.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReportedCommentDto {
    pub comment_id: i64,
    /// The setup it is under (`/community/setup/{setupId}`).
    pub setup_id: i64,
    /// Absent when the author's account is gone.
    pub author_id: Option<i64>,
    pub author_username: String,
    /// What the comment says ("" once deleted with replies).
    pub body: String,
    pub written_at: DateTime<Utc>,
    pub reports: Vec<OpenReportDto>,
}

impl From<ReportedComment> for ReportedCommentDto {
    fn from(c: ReportedComment) -> Self {
        Self {
            comment_id: c.comment_id.0,
            setup_id: c.setup_id.0,
            author_id: c.author_id.map(|id| id.0),
            author_username: c.author_username,
            body: c.body,
            written_at: c.written_at,
            reports: c.reports.into_iter().map(OpenReportDto::from).collect(),
        }
    }
}

/// `dismiss`: the reports were unfounded, the setup is shown again; `remove`: it goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum DecisionDto {
    Dismiss,
    Remove,
}

#[derive(Debug, Deserialize, Validate, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct DecideRequest {
    #[validate(range(min = 1, message = "Setup ID must be a positive integer."))]
    #[schema(minimum = 1)]
    pub setup_id: i64,
    pub decision: DecisionDto,
    /// Why, for the admin log.
    #[validate(length(max = 500, message = "Note cannot exceed 500 characters."))]
    #[schema(max_length = 500)]
    pub note: Option<String>,
}

#[derive(Debug, Deserialize, Validate, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct DecideCommentRequest {
    #[validate(range(min = 1, message = "Comment ID must be a positive integer."))]
    #[schema(minimum = 1)]
    pub comment_id: i64,
    pub decision: DecisionDto,
    /// Why, for the admin log.
    #[validate(length(max = 500, message = "Note cannot exceed 500 characters."))]
    #[schema(max_length = 500)]
    pub note: Option<String>,
}

#[derive(Debug, Deserialize, IntoParams, Validate)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct UserSearchQuery {
    /// Any part of an e-mail or a username; empty or absent: every account.
    #[serde(default)]
    #[validate(length(max = 254, message = "A search is at most 254 characters."))]
    #[param(max_length = 254)]
    pub query: String,
    #[serde(default)]
    #[validate(range(min = 0, message = "Offset must be 0 or more."))]
    #[param(minimum = 0)]
    pub offset: i64,
}

/// One page of accounts, newest first.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AdminUsersResponse {
    pub users: Vec<AdminAccountDto>,
    /// Accounts matching in all.
    pub total: i64,
    pub limit: i64,
    pub offset: i64,
    pub has_more: bool,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AdminAccountDto {
    pub id: i64,
    pub email: String,
    pub username: String,
    pub display_name: String,
    pub is_pro: bool,
    /// The address is verified (its link was followed, or an admin marked it).
    pub email_verified: bool,
    pub role: Role,
    pub credits: i32,
    pub created_at: DateTime<Utc>,
}

impl From<Account> for AdminAccountDto {
    fn from(a: Account) -> Self {
        Self {
            id: a.id.0,
            email: a.email,
            username: a.username,
            display_name: a.display_name,
            is_pro: a.is_pro,
            email_verified: a.email_verified,
            role: a.role,
            credits: a.credits,
            created_at: a.created_at,
        }
    }
}

/// `grant_pro`, `revoke_pro`, `grant_admin` or `revoke_admin`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum AccountChangeDto {
    GrantPro,
    RevokePro,
    GrantAdmin,
    RevokeAdmin,
}

#[derive(Debug, Deserialize, Validate, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ChangeAccountRequest {
    #[validate(range(min = 1, message = "User ID must be a positive integer."))]
    #[schema(minimum = 1)]
    pub user_id: i64,
    pub change: AccountChangeDto,
}

/// `grant_pro`, `revoke_pro`, `verify` (mark the address verified) or `delete`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum BulkActionDto {
    GrantPro,
    RevokePro,
    Verify,
    Delete,
}

impl From<BulkActionDto> for BulkAction {
    fn from(action: BulkActionDto) -> Self {
        match action {
            BulkActionDto::GrantPro => Self::Change(BulkChange::GrantPro),
            BulkActionDto::RevokePro => Self::Change(BulkChange::RevokePro),
            BulkActionDto::Verify => Self::Change(BulkChange::Verify),
            BulkActionDto::Delete => Self::Delete,
        }
    }
}

/// One action on the accounts an admin ticked in the users table.
#[derive(Debug, Deserialize, Validate, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct BulkUsersRequest {
    /// The accounts, each once.
    #[validate(
        length(min = 1, max = 50, message = "Choose between 1 and 50 accounts."),
        custom(function = "distinct_user_ids")
    )]
    #[schema(min_items = 1, max_items = 50, value_type = Vec<UserId>)]
    pub user_ids: Vec<i64>,
    pub action: BulkActionDto,
}

/// A user id as the document states it ([`distinct_user_ids`]); the request carries numbers.
pub struct UserId;

impl utoipa::PartialSchema for UserId {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        positive_id()
    }
}

impl ToSchema for UserId {}

fn distinct_user_ids(ids: &[i64]) -> Result<(), ValidationError> {
    if ids.iter().any(|&id| id < 1) {
        return Err(ValidationError::new("range").with_message("User ID must be a positive integer.".into()));
    }
    let mut seen = std::collections::HashSet::with_capacity(ids.len());
    if ids.iter().all(|id| seen.insert(*id)) {
        Ok(())
    } else {
        Err(ValidationError::new("unique").with_message("Each account can be chosen once.".into()))
    }
}

/// Why an account of a bulk action was left as it was.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum BulkSkipReason {
    /// No account has this id.
    NotFound,
    /// The admin's own account (delete): they delete it from their profile.
    Yourself,
    /// Another admin (delete): their admin role is removed first.
    Admin,
    /// Pro is granted already (grant_pro).
    AlreadyPro,
    /// No admin's grant of Pro to remove (revoke_pro): not Pro, or Pro by subscription.
    NoGrant,
    /// The address is verified already (verify).
    AlreadyVerified,
    /// Their subscription could not be ended first (delete): try again later.
    Blocked,
}

impl From<Skip> for BulkSkipReason {
    fn from(skip: Skip) -> Self {
        match skip {
            Skip::NotFound => Self::NotFound,
            Skip::Yourself => Self::Yourself,
            Skip::Admin => Self::Admin,
            Skip::AlreadyPro => Self::AlreadyPro,
            Skip::NoGrant => Self::NoGrant,
            Skip::AlreadyVerified => Self::AlreadyVerified,
            Skip::Blocked => Self::Blocked,
        }
    }
}

/// What became of one chosen account.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BulkUserResultDto {
    pub user_id: i64,
    /// Changed (or deleted); false: skipped, with the reason.
    pub changed: bool,
    pub reason: Option<BulkSkipReason>,
    /// The reason in words, for the admin.
    pub message: Option<String>,
}

impl From<BulkOutcome> for BulkUserResultDto {
    fn from(outcome: BulkOutcome) -> Self {
        Self {
            user_id: outcome.user_id.0,
            changed: outcome.skipped.is_none(),
            reason: outcome.skipped.map(BulkSkipReason::from),
            message: outcome.skipped.map(|skip| skip.to_string()),
        }
    }
}

/// How a bulk action went: how many accounts changed and were skipped, and each one's
/// outcome in the order they were sent.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BulkUsersResponse {
    pub changed: usize,
    pub skipped: usize,
    pub results: Vec<BulkUserResultDto>,
}

impl From<Vec<BulkOutcome>> for BulkUsersResponse {
    fn from(outcomes: Vec<BulkOutcome>) -> Self {
        let changed = outcomes.iter().filter(|o| o.skipped.is_none()).count();
        Self {
            changed,
            skipped: outcomes.len() - changed,
            results: outcomes.into_iter().map(BulkUserResultDto::from).collect(),
        }
    }
}

#[derive(Debug, Deserialize, IntoParams, Validate)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct LogQuery {
    #[serde(default = "default_log_limit")]
    #[validate(range(min = 1, max = 100, message = "Limit must be between 1 and 100."))]
    #[param(minimum = 1, maximum = 100)]
    pub limit: i64,
    #[serde(default)]
    #[validate(range(min = 0, message = "Offset must be 0 or more."))]
    #[param(minimum = 0)]
    pub offset: i64,
}

fn default_log_limit() -> i64 {
    50
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LogEntryDto {
    pub id: i64,
    pub admin_id: Option<i64>,
    pub admin_name: String,
    pub action: Action,
    pub target_type: TargetKind,
    pub target_id: i64,
    pub details: Option<String>,
    pub created_at: DateTime<Utc>,
}

impl From<Entry> for LogEntryDto {
    fn from(e: Entry) -> Self {
        Self {
            id: e.id,
            admin_id: e.admin_id.map(|id| id.0),
            admin_name: e.admin_name,
            action: e.action,
            target_type: e.target_type,
            target_id: e.target_id,
            details: e.details,
            created_at: e.created_at,
        }
    }
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LogResponse {
    pub entries: Vec<LogEntryDto>,
    pub total: i64,
}
