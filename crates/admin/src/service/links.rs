//! Link health: verification runs over the catalogue's affiliate links and what an admin
//! does about the links that stopped earning.
//!
//! A run is opened in the database (one pending at a time, across replicas: a partial
//! unique index), the links are checked by [`checker`](super::checker) outside any
//! transaction, and the results are written in one transaction. Per product:
//! - healthy: failures reset;
//! - dead, an error, a timeout or a refused address: a failure; the second in a row
//!   ([`FAILURES_TO_DEACTIVATE`]) deactivates the product (one bad minute of a merchant's
//!   site does not pull a product);
//! - a redirect to the merchant's home page or a dropped affiliate tag: a warning, the
//!   product stays as it is, unless an admin accepted that final address;
//! - a bot-check page: unknown, shown as such; neither its failures nor whether it is
//!   active change (the checker could not see the page, which says nothing about the link);
//! - could not check (the name did not resolve, the connection failed, TLS, the network is
//!   unreachable: [`Verdict::Unreachable`]): the same, for the same reason.
//!
//! A run in which most links could not be checked says more about the server than about the
//! links (no internet, no DNS): it is recorded as failed with its reason and changes no product,
//! so a server without internet keeps its catalogue whatever an admin clicks.

use std::collections::HashMap;

use chrono::{DateTime, Duration, NaiveDateTime, Utc};
use serde::{Deserialize, Serialize};
use setupiq_affiliate::service::link_health::{self, CheckedLink, ProductLink};
use setupiq_affiliate::service::stats;
use setupiq_core::{ProductId, RunId, UserId};
use setupiq_db::{AppCtx, DbConnection, DieselError, write_transaction};

use super::analytics::estimated_cents;
use super::checker::{self, CheckResult, CheckerConfig, Hop, LinkToCheck, Verdict};
use super::log::{self, Action, Actor, Target};
use crate::error::AdminError;
pub use crate::models::RunStatus;
use crate::models::{LinkCheckInsertForm, RunInsertForm, RunOutcomeForm};
use crate::repo;

pub const FAILURES_TO_DEACTIVATE: i32 = 2;
/// A run still pending after this long lost its process: the next run marks it failed.
pub const STALE_RUN: Duration = Duration::minutes(30);
/// Revenue at risk counts this many days of clicks.
pub const AT_RISK_DAYS: i64 = 30;

setupiq_db::text_enum! {
    /// The product categories of the catalogue (spec §3), by their display names.
    #[derive(Serialize, Deserialize, utoipa::ToSchema)]
    #[schema(as = ProductCategory)]
    pub enum Category {
        #[serde(rename = "Accessories")]
        Accessories = "Accessories",
        #[serde(rename = "Cable Management")]
        CableManagement = "Cable Management",
        #[serde(rename = "Chair")]
        Chair = "Chair",
        #[serde(rename = "Desk")]
        Desk = "Desk",
        #[serde(rename = "Headset")]
        Headset = "Headset",
        #[serde(rename = "Keyboard")]
        Keyboard = "Keyboard",
        #[serde(rename = "Lighting")]
        Lighting = "Lighting",
        #[serde(rename = "Microphone")]
        Microphone = "Microphone",
        #[serde(rename = "Monitor")]
        Monitor = "Monitor",
        #[serde(rename = "Mouse")]
        Mouse = "Mouse",
        #[serde(rename = "Webcam")]
        Webcam = "Webcam",
    }
}

/// The affiliate networks (spec §3) by their display names, stored by a short key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[schema(as = AffiliateNetwork)]
pub enum Network {
    Amazon,
    #[serde(rename = "B&H Photo")]
    BhPhoto,
    #[serde(rename = "Best Buy")]
    BestBuy,
    #[serde(rename = "Micro Center")]
    MicroCenter,
    Newegg,
    Other,
}

impl Network {
    /// The network of a `products.network` key; [`Network::Other`] for one it does not know.
    pub fn from_key(key: &str) -> Self {
        match key {
            "amazon" => Network::Amazon,
            "bh_photo" => Network::BhPhoto,
            "best_buy" => Network::BestBuy,
            "micro_center" => Network::MicroCenter,
            "newegg" => Network::Newegg,
            _ => Network::Other,
        }
    }

    /// `products.network`.
    pub fn key(self) -> &'static str {
        match self {
            Network::Amazon => "amazon",
            Network::BhPhoto => "bh_photo",
            Network::BestBuy => "best_buy",
            Network::MicroCenter => "micro_center",
            Network::Newegg => "newegg",
            Network::Other => "other",
        }
    }
}

/// Which links a run checks (none: all).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LinkFilter {
    pub category: Option<Category>,
    pub network: Option<Network>,
}

setupiq_db::text_enum! {
    /// A link's health as the last run saw it (`products.link_status`).
    #[derive(Serialize, Deserialize, utoipa::ToSchema)]
    #[serde(rename_all = "lowercase")]
    pub enum Health {
        Healthy = "healthy",
        Dead = "dead",
        Warning = "warning",
        Unknown = "unknown",
    }
}

/// A verdict as stored (`link_checks.verdict`, `products.link_verdict`).
fn verdict_key(verdict: &Verdict) -> &'static str {
    match verdict {
        Verdict::Healthy => "healthy",
        Verdict::Dead => "dead",
        Verdict::HomePageRedirect => "home_page_redirect",
        Verdict::TagDropped => "tag_dropped",
        Verdict::BotCheck => "bot_check",
        Verdict::Timeout => "timeout",
        Verdict::Unreachable(_) => "unreachable",
        Verdict::Error(_) => "error",
        Verdict::Refused(_) => "refused",
    }
}

/// What one result does to its product: its health, and whether it is a failure.
fn judge(result: &CheckResult<ProductId>, expected_final_url: Option<&str>) -> (Health, bool) {
    match &result.verdict {
        Verdict::Healthy => (Health::Healthy, false),
        Verdict::HomePageRedirect | Verdict::TagDropped
            if expected_final_url.is_some() && result.final_url.as_deref() == expected_final_url =>
        {
            (Health::Healthy, false)
        }
        Verdict::HomePageRedirect | Verdict::TagDropped => (Health::Warning, false),
        Verdict::BotCheck | Verdict::Unreachable(_) => (Health::Unknown, false),
        Verdict::Dead | Verdict::Timeout | Verdict::Error(_) | Verdict::Refused(_) => (Health::Dead, true),
    }
}

/// A run just opened, with the links to check.
#[derive(Debug)]
pub struct OpenedRun {
    pub run_id: RunId,
    pub links: Vec<LinkToCheck<ProductId>>,
}

/// Opens a run for the links `filter` selects; [`AdminError::RunInProgress`] while another
/// is pending (on any replica).
pub fn open_run(
    conn: &mut DbConnection,
    actor: Actor<'_>,
    filter: LinkFilter,
    now: DateTime<Utc>,
) -> Result<OpenedRun, AdminError> {
    write_transaction(conn, |conn| {
        repo::fail_stale_runs(conn, (now - STALE_RUN).naive_utc(), now.naive_utc())?;
        let category = filter.category.map(Category::as_str);
        let network = filter.network.map(Network::key);
        let form = RunInsertForm {
            status: RunStatus::Pending,
            category,
            network,
            started_by: Some(actor.id),
            started_at: now.naive_utc(),
        };
        let run_id = match repo::insert_run(conn, &form) {
            Ok(id) => id,
            Err(DieselError::DatabaseError(diesel::result::DatabaseErrorKind::UniqueViolation, _)) => {
                return Err(AdminError::RunInProgress);
            }
            Err(err) => return Err(err.into()),
        };
        let links = link_health::products(conn, category, network)?
            .into_iter()
            .map(|p| LinkToCheck { id: p.id, url: p.link })
            .collect();
        let details =
            format!("category: {}, network: {}", category.unwrap_or("all"), network.unwrap_or("all"));
        log::record(conn, actor, Action::VerifyLinks, Target::Run(run_id), Some(&details), now)?;
        Ok(OpenedRun { run_id, links })
    })
}

/// A link that failed (dead, error, timeout, refused) in a run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeadLink {
    pub product_id: ProductId,
    pub url: String,
    pub status_code: Option<u16>,
    pub verdict: &'static str,
}

/// What a run found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunSummary {
    pub run_id: RunId,
    pub total_checked: i32,
    pub healthy: i32,
    pub dead: i32,
    pub warnings: i32,
    pub unknown: i32,
    pub errors: i32,
    pub timeouts: i32,
    /// Links the checker could not reach from its side (counted apart from `unknown`).
    pub unreachable: i32,
    pub dead_links: Vec<DeadLink>,
}

impl RunSummary {
    /// A run that found nothing yet.
    fn new(run_id: RunId) -> Self {
        Self {
            run_id,
            total_checked: 0,
            healthy: 0,
            dead: 0,
            warnings: 0,
            unknown: 0,
            errors: 0,
            timeouts: 0,
            unreachable: 0,
            dead_links: Vec::new(),
        }
    }

    fn outcome<'a>(
        &self,
        status: RunStatus,
        failure_reason: Option<&'a str>,
        now: DateTime<Utc>,
    ) -> RunOutcomeForm<'a> {
        RunOutcomeForm {
            status,
            finished_at: now.naive_utc(),
            total_checked: self.total_checked,
            healthy: self.healthy,
            dead: self.dead,
            warnings: self.warnings,
            unknown: self.unknown,
            errors: self.errors,
            timeouts: self.timeouts,
            unreachable: self.unreachable,
            failure_reason,
        }
    }
}

/// Whether most of a run's links could not be checked from this server: then the run says
/// nothing about the links. Returns how many, and the first cause, to explain the failure.
pub(crate) fn mostly_unreachable<Id>(results: &[CheckResult<Id>]) -> Option<(usize, &str)> {
    let mut causes = results.iter().filter_map(|r| match &r.verdict {
        Verdict::Unreachable(cause) => Some(cause.as_str()),
        _ => None,
    });
    let first = causes.next()?;
    let count = 1 + causes.count();
    (count * 2 > results.len()).then_some((count, first))
}

/// A whole verification run for the admin `actor` (its id and username): opened, the links
/// of `filter` checked outside any transaction, the results written. A run whose results
/// could not be written is closed as failed, so the next one is not refused.
pub async fn verify(
    ctx: &AppCtx,
    checks: &CheckerConfig,
    actor: (UserId, String),
    filter: LinkFilter,
) -> Result<RunSummary, AdminError> {
    let AppCtx { db, clock, .. } = ctx;
    let now = clock.now();
    let (admin_id, admin_name) = (actor.0, actor.1.clone());
    let opened =
        db.run(move |conn| open_run(conn, Actor { id: actor.0, username: &actor.1 }, filter, now)).await?;
    let run_id = opened.run_id;
    let results = checker::check_all(opened.links, checks).await;
    let finished = clock.now();
    let outcome = db.run(move |conn| finish_run(conn, run_id, &results, finished)).await;
    if let Err(error) = &outcome {
        // A run that closed itself as failed keeps its own reason.
        let reason = "The results could not be saved.";
        if let Err(closing) = db.run(move |conn| fail_run(conn, run_id, reason, finished)).await {
            tracing::error!(run_id = run_id.0, error = %closing, "a failed link verification run could not be closed");
        }
        // The log says the check failed, and why, beside the entry that started it.
        let why = error.to_string();
        let logged = db
            .run(move |conn| {
                let actor = Actor { id: admin_id, username: &admin_name };
                log::record(conn, actor, Action::VerifyLinksFailed, Target::Run(run_id), Some(&why), finished)
            })
            .await;
        if let Err(logging) = logged {
            tracing::error!(run_id = run_id.0, error = %logging, "a failed link verification run could not be logged");
        }
    }
    outcome
}

/// Writes a run's results and closes it as completed. When most links could not be checked
/// ([`Verdict::Unreachable`]), the run is closed as failed with the reason instead, no product
/// changes, and the answer is [`AdminError::ChecksUnreachable`].
pub fn finish_run(
    conn: &mut DbConnection,
    run_id: RunId,
    results: &[CheckResult<ProductId>],
    now: DateTime<Utc>,
) -> Result<RunSummary, AdminError> {
    if let Some((unreachable, cause)) = mostly_unreachable(results) {
        let total = results.len();
        let error = AdminError::ChecksUnreachable { unreachable, total, cause: cause.to_owned() };
        let reason = error.to_string();
        let summary = RunSummary {
            total_checked: i32::try_from(total).unwrap_or(i32::MAX),
            unreachable: i32::try_from(unreachable).unwrap_or(i32::MAX),
            ..RunSummary::new(run_id)
        };
        repo::finish_run(conn, run_id, &summary.outcome(RunStatus::Failed, Some(&reason), now))?;
        return Err(error);
    }
    write_transaction(conn, |conn| {
        let mut summary = RunSummary::new(run_id);
        for result in results {
            let Some(product) = link_health::find(conn, result.id)? else { continue };
            let (health, failed) = judge(result, product.expected_final_url.as_deref());
            let verdict = verdict_key(&result.verdict);
            let status_code = result.status.map(i32::from);
            summary.total_checked += 1;
            match (&result.verdict, health) {
                (Verdict::Timeout, _) => summary.timeouts += 1,
                (Verdict::Unreachable(_), _) => summary.unreachable += 1,
                (Verdict::Error(_) | Verdict::Refused(_), _) => summary.errors += 1,
                (_, Health::Healthy) => summary.healthy += 1,
                (_, Health::Dead) => summary.dead += 1,
                (_, Health::Warning) => summary.warnings += 1,
                (_, Health::Unknown) => summary.unknown += 1,
            }
            if failed {
                summary.dead_links.push(DeadLink {
                    product_id: product.id,
                    url: result.url.clone(),
                    status_code: result.status,
                    verdict,
                });
            }
            // A bot check is recorded as seen, but never counts for or against the link.
            let (failures, active) = match health {
                Health::Unknown => (product.consecutive_failures, product.is_active),
                _ if failed => {
                    let failures = product.consecutive_failures + 1;
                    (failures, product.is_active && failures < FAILURES_TO_DEACTIVATE)
                }
                _ => (0, product.is_active),
            };
            let checked = CheckedLink {
                status: health.as_str(),
                verdict,
                status_code,
                final_url: result.final_url.as_deref(),
                consecutive_failures: failures,
                is_active: active,
                checked_at: now.naive_utc(),
            };
            link_health::record(conn, product.id, &checked)?;
            let chain = serde_json::to_string(&result.chain).map_err(AdminError::Encode)?;
            repo::insert_check(
                conn,
                &LinkCheckInsertForm {
                    run_id,
                    product_id: product.id,
                    url: &result.url,
                    final_url: result.final_url.as_deref(),
                    status_code,
                    verdict,
                    chain: &chain,
                    elapsed_ms: i32::try_from(result.elapsed.as_millis()).unwrap_or(i32::MAX),
                    checked_at: now.naive_utc(),
                },
            )?;
        }
        repo::finish_run(conn, run_id, &summary.outcome(RunStatus::Completed, None, now))?;
        Ok(summary)
    })
}

/// Closes a run that could not finish as failed, with why (a run already closed keeps its
/// outcome).
pub fn fail_run(
    conn: &mut DbConnection,
    run_id: RunId,
    reason: &str,
    now: DateTime<Utc>,
) -> Result<(), AdminError> {
    let outcome = RunSummary::new(run_id).outcome(RunStatus::Failed, Some(reason), now);
    repo::finish_run(conn, run_id, &outcome)?;
    Ok(())
}

/// A stored run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Run {
    pub id: RunId,
    pub status: RunStatus,
    pub category: Option<String>,
    pub network: Option<String>,
    pub started_at: DateTime<Utc>,
    pub finished_at: Option<DateTime<Utc>>,
    pub total_checked: i32,
    pub healthy: i32,
    pub dead: i32,
    pub warnings: i32,
    pub unknown: i32,
    pub errors: i32,
    pub timeouts: i32,
    pub unreachable: i32,
    /// Why a failed run failed.
    pub failure_reason: Option<String>,
}

/// A link that needs an admin: dead, warning or unknown, or switched off.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinkProblem {
    pub product_id: ProductId,
    pub name: String,
    pub category: String,
    pub network: String,
    pub url: String,
    pub health: Option<Health>,
    pub verdict: Option<String>,
    pub status_code: Option<i32>,
    pub final_url: Option<String>,
    pub chain: Vec<Hop>,
    pub consecutive_failures: i32,
    pub is_active: bool,
    pub checked_at: Option<DateTime<Utc>>,
    /// The last 30 days' clicks x what a click earns: what this link costs while broken.
    pub revenue_at_risk_cents: i64,
}

/// The state of the catalogue's links.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HealthReport {
    pub total: i64,
    pub active: i64,
    pub inactive: i64,
    pub never_verified: i64,
    pub last_run: Option<Run>,
    pub recent_runs: Vec<Run>,
    /// Most revenue at risk first.
    pub problems: Vec<LinkProblem>,
}

fn run_of(row: crate::models::RunRow) -> Run {
    Run {
        id: row.id,
        status: row.status,
        category: row.category,
        network: row.network,
        started_at: row.started_at.and_utc(),
        finished_at: row.finished_at.map(|t| t.and_utc()),
        total_checked: row.total_checked,
        healthy: row.healthy,
        dead: row.dead,
        warnings: row.warnings,
        unknown: row.unknown,
        errors: row.errors,
        timeouts: row.timeouts,
        unreachable: row.unreachable,
        failure_reason: row.failure_reason,
    }
}

pub fn report(
    conn: &mut DbConnection,
    now: DateTime<Utc>,
    conversion_bp: u32,
) -> Result<HealthReport, AdminError> {
    let products = link_health::products(conn, None, None)?;
    let runs: Vec<Run> = repo::last_runs(conn, 10)?.into_iter().map(run_of).collect();
    let first_day = now.date_naive() - Duration::days(AT_RISK_DAYS - 1);
    let clicks: HashMap<ProductId, i64> =
        stats::clicks_per_product(conn, Some(first_day))?.into_iter().collect();
    // The hops of each product's check in the last completed run.
    let chains: HashMap<ProductId, Vec<Hop>> = match runs.iter().find(|r| r.status == RunStatus::Completed) {
        Some(run) => repo::chains_in_run(conn, run.id)?
            .into_iter()
            .filter_map(|(product_id, chain)| Some((product_id, serde_json::from_str(&chain).ok()?)))
            .collect(),
        None => HashMap::new(),
    };
    let count = |keep: &dyn Fn(&ProductLink) -> bool| {
        i64::try_from(products.iter().filter(|p| keep(p)).count()).unwrap_or(0)
    };
    let (total, active) = (count(&|_| true), count(&|p| p.is_active));
    let never_verified = count(&|p| p.last_verified_at.is_none());
    let mut problems: Vec<LinkProblem> = products
        .iter()
        .filter(|p| !p.is_active || p.link_status.as_deref().is_some_and(|s| s != Health::Healthy.as_str()))
        .map(|p| LinkProblem {
            product_id: p.id,
            name: p.name.clone(),
            category: p.product_category.clone(),
            network: p.network.clone(),
            url: p.link.clone(),
            health: p.link_status.as_deref().and_then(|s| s.parse().ok()),
            verdict: p.link_verdict.clone(),
            status_code: p.link_status_code,
            final_url: p.link_final_url.clone(),
            chain: chains.get(&p.id).cloned().unwrap_or_default(),
            consecutive_failures: p.consecutive_failures,
            is_active: p.is_active,
            checked_at: p.last_verified_at.map(|t: NaiveDateTime| t.and_utc()),
            revenue_at_risk_cents: estimated_cents(
                clicks.get(&p.id).copied().unwrap_or(0),
                p.price_cents,
                p.commission_bp,
                conversion_bp,
            ),
        })
        .collect();
    problems.sort_by(|a, b| {
        b.revenue_at_risk_cents.cmp(&a.revenue_at_risk_cents).then(a.product_id.cmp(&b.product_id))
    });
    Ok(HealthReport {
        total,
        active,
        inactive: total - active,
        never_verified,
        last_run: runs.first().cloned(),
        recent_runs: runs,
        problems,
    })
}

/// What an admin does about one product's link.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LinkAction {
    /// The link's redirect is fine where it lands now: accept its last final address.
    ExpectRedirect,
    /// A new affiliate link (http or https); its health starts over.
    Replace(String),
    /// Switch the product on or off in suggestions.
    SetActive(bool),
}

pub fn act(
    conn: &mut DbConnection,
    actor: Actor<'_>,
    product_id: ProductId,
    action: &LinkAction,
    now: DateTime<Utc>,
) -> Result<(), AdminError> {
    write_transaction(conn, |conn| {
        let product = link_health::find(conn, product_id)?.ok_or(AdminError::ProductNotFound)?;
        let (logged, details) = match action {
            LinkAction::ExpectRedirect => {
                let final_url = product.link_final_url.as_deref().ok_or(AdminError::NothingToExpect)?;
                link_health::accept_final_url(conn, product.id, Some(final_url))?;
                if product.link_status.as_deref() == Some(Health::Warning.as_str()) {
                    let verdict = product.link_verdict.as_deref().unwrap_or("healthy");
                    let checked = CheckedLink {
                        status: Health::Healthy.as_str(),
                        verdict,
                        status_code: product.link_status_code,
                        final_url: Some(final_url),
                        consecutive_failures: 0,
                        is_active: product.is_active,
                        checked_at: product.last_verified_at.unwrap_or_else(|| now.naive_utc()),
                    };
                    link_health::record(conn, product.id, &checked)?;
                }
                (Action::ExpectRedirect, final_url.to_owned())
            }
            LinkAction::Replace(url) => {
                link_health::replace_link(conn, product.id, url)?;
                (Action::ReplaceLink, format!("{} -> {url}", product.link))
            }
            LinkAction::SetActive(on) => {
                link_health::set_active(conn, product.id, *on)?;
                (if *on { Action::ActivateProduct } else { Action::DeactivateProduct }, product.name.clone())
            }
        };
        log::record(conn, actor, logged, Target::Product(product.id), Some(&details), now)
    })
}

/// Switches on every product of `product_ids` that is off, its failure count started over
/// (after a run on a bad network day, say), or off every one that is on (the dead links of a
/// run); each change is logged. Returns how many were changed.
pub fn set_active_many(
    conn: &mut DbConnection,
    actor: Actor<'_>,
    product_ids: &[ProductId],
    active: bool,
    now: DateTime<Utc>,
) -> Result<usize, AdminError> {
    let action = if active { Action::ActivateProduct } else { Action::DeactivateProduct };
    write_transaction(conn, |conn| {
        let changed = link_health::set_active_many(conn, product_ids, active)?;
        for (product_id, name) in &changed {
            log::record(conn, actor, action, Target::Product(*product_id), Some(name), now)?;
        }
        Ok(changed.len())
    })
}
