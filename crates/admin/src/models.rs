//! Rows of verification runs, their results and the admin log.

use chrono::NaiveDateTime;
use diesel::prelude::*;
use serde::{Deserialize, Serialize};
use setupiq_affiliate::service::link_health::LinkVerdict;
use setupiq_core::{ProductId, RunId, UserId};
use setupiq_db::schema::{admin_log, link_check_runs, link_checks};

setupiq_db::text_enum! {
    /// Where a verification run stands: running, or how it ended.
    #[derive(Serialize, Deserialize, utoipa::ToSchema)]
    #[serde(rename_all = "lowercase")]
    pub enum RunStatus {
        /// Started and not finished yet.
        Pending = "pending",
        /// Every link was checked.
        Completed = "completed",
        /// Stopped early (most links could not be checked, or its server stopped).
        Failed = "failed",
    }
}

/// How a run's links came out, one count per outcome: stored in the run's row, and sent
/// (flattened) in every answer about a run.
#[derive(
    Debug,
    Clone,
    Copy,
    Default,
    PartialEq,
    Eq,
    Queryable,
    Selectable,
    AsChangeset,
    Serialize,
    Deserialize,
    utoipa::ToSchema,
)]
#[diesel(table_name = link_check_runs)]
#[serde(rename_all = "camelCase")]
pub struct RunCounts {
    pub total_checked: i32,
    pub healthy: i32,
    pub dead: i32,
    /// Home-page redirects and dropped affiliate tags.
    pub warnings: i32,
    /// Bot-check pages: the checker could not see the page.
    pub unknown: i32,
    pub errors: i32,
    pub timeouts: i32,
    /// Links the checker could not reach from this server (DNS, connection, TLS): neither
    /// healthy nor dead, and never a failure.
    pub unreachable: i32,
}

#[derive(Debug, Insertable)]
#[diesel(table_name = link_check_runs)]
pub(crate) struct RunInsertForm<'a> {
    pub status: RunStatus,
    pub category: Option<&'a str>,
    pub network: Option<&'a str>,
    pub started_by: Option<UserId>,
    pub started_at: NaiveDateTime,
}

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = link_check_runs)]
pub(crate) struct RunRow {
    pub id: RunId,
    pub status: RunStatus,
    pub category: Option<String>,
    pub network: Option<String>,
    pub started_at: NaiveDateTime,
    pub finished_at: Option<NaiveDateTime>,
    #[diesel(embed)]
    pub counts: RunCounts,
    pub failure_reason: Option<String>,
}

/// How a run ended: its status, its counts and, for a failed run, why.
#[derive(Debug, AsChangeset)]
#[diesel(table_name = link_check_runs)]
pub(crate) struct RunOutcomeForm<'a> {
    pub status: RunStatus,
    pub finished_at: NaiveDateTime,
    #[diesel(embed)]
    pub counts: RunCounts,
    pub failure_reason: Option<&'a str>,
}

#[derive(Debug, Insertable)]
#[diesel(table_name = link_checks)]
pub(crate) struct LinkCheckInsertForm<'a> {
    pub run_id: RunId,
    pub product_id: ProductId,
    pub url: &'a str,
    pub final_url: Option<&'a str>,
    pub status_code: Option<i32>,
    pub verdict: LinkVerdict,
    pub chain: &'a str,
    pub elapsed_ms: i32,
    pub checked_at: NaiveDateTime,
}

setupiq_db::text_enum! {
    /// What an admin did.
    #[derive(Serialize, Deserialize, utoipa::ToSchema)]
    #[serde(rename_all = "snake_case")]
    pub enum Action {
        DismissReports = "dismiss_reports",
        RemoveSetup = "remove_setup",
        DismissCommentReports = "dismiss_comment_reports",
        RemoveComment = "remove_comment",
        GrantPro = "grant_pro",
        RevokePro = "revoke_pro",
        GrantAdmin = "grant_admin",
        RevokeAdmin = "revoke_admin",
        /// An admin marked an account's address as verified.
        VerifyEmail = "verify_email",
        /// An admin deleted an account (the details name it: its id is gone).
        DeleteAccount = "delete_account",
        /// A link check was started (its outcome is the run's; a failure is logged apart).
        VerifyLinks = "verify_links",
        /// A link check failed (no network, results not saved): the details say why.
        VerifyLinksFailed = "verify_links_failed",
        ReplaceLink = "replace_link",
        ActivateProduct = "activate_product",
        DeactivateProduct = "deactivate_product",
        ExpectRedirect = "expect_redirect",
    }
}

setupiq_db::text_enum! {
    /// What an action was done to.
    #[derive(Serialize, Deserialize, utoipa::ToSchema)]
    #[serde(rename_all = "snake_case")]
    pub enum TargetKind {
        Setup = "setup",
        Comment = "comment",
        User = "user",
        Product = "product",
        Run = "run",
    }
}

#[derive(Debug, Insertable)]
#[diesel(table_name = admin_log)]
pub(crate) struct LogInsertForm<'a> {
    pub admin_id: Option<UserId>,
    pub admin_name: &'a str,
    pub action: Action,
    pub target_type: TargetKind,
    pub target_id: i64,
    pub details: Option<&'a str>,
    pub created_at: NaiveDateTime,
}

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = admin_log)]
pub(crate) struct LogRow {
    pub id: i64,
    pub admin_id: Option<UserId>,
    pub admin_name: String,
    pub action: Action,
    pub target_type: TargetKind,
    pub target_id: i64,
    pub details: Option<String>,
    pub created_at: NaiveDateTime,
}
