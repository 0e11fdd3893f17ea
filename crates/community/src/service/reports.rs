//! Reports: one per user and setup (a repeat changes nothing), anonymous to the uploader.
//! The reporter no longer sees the setup; a setup with [`HIDE_AT_OPEN_REPORTS`] open reports
//! (from as many users) is hidden from everyone until an admin reviews it. A user files at
//! most [`DAILY_REPORT_LIMIT`] reports a day.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use setupiq_auth::service::ledger;
use setupiq_db::{DbConnection, write_transaction};

use super::{until_tomorrow, utc_day};
use crate::error::CommunityError;
use crate::models::ReportInsertForm;
use crate::repo;

pub const HIDE_AT_OPEN_REPORTS: i32 = 3;
pub const DAILY_REPORT_LIMIT: i64 = 20;

setupiq_db::text_enum! {
    /// Why a setup is reported (spec §5 "Report").
    #[derive(Serialize, Deserialize, utoipa::ToSchema)]
    #[serde(rename_all = "snake_case")]
    pub enum ReportReason {
        IllegalContent = "illegal_content",
        HateSpeech = "hate_speech",
        Copyright = "copyright",
        Spam = "spam",
    }
}

setupiq_db::text_enum! {
    /// Where a report stands: open until an admin dismisses or upholds it.
    #[derive(Serialize, Deserialize, utoipa::ToSchema)]
    #[serde(rename_all = "lowercase")]
    pub enum ReportStatus {
        Open = "open",
        Dismissed = "dismissed",
        Upheld = "upheld",
    }
}

/// What a report did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reported {
    /// False for a repeat of this user's earlier report (nothing counted).
    pub counted: bool,
    /// The setup is hidden from everyone now (pending review).
    pub hidden: bool,
}

/// Files `reporter_id`'s report of a setup.
pub fn report(
    conn: &mut DbConnection,
    reporter_id: i64,
    setup_id: i64,
    reason: ReportReason,
    details: Option<&str>,
    now: DateTime<Utc>,
) -> Result<Reported, CommunityError> {
    write_transaction(conn, |conn| {
        ledger::lock_account(conn, reporter_id)?;
        let setup = repo::find_setup(conn, setup_id)?.ok_or(CommunityError::SetupNotFound)?;
        if setup.user_id == reporter_id {
            return Err(CommunityError::OwnReport);
        }
        if repo::has_reported(conn, setup_id, reporter_id)? {
            return Ok(Reported { counted: false, hidden: setup.hidden });
        }
        let (start, end) = utc_day(now);
        if repo::count_reports_between(conn, reporter_id, start, end)? >= DAILY_REPORT_LIMIT {
            return Err(CommunityError::DailyReportLimit { retry_after: until_tomorrow(now) });
        }
        let form = ReportInsertForm {
            setup_id,
            reporter_id,
            reason,
            details,
            status: ReportStatus::Open,
            created_at: now.naive_utc(),
        };
        if !repo::insert_report(conn, &form)? {
            return Ok(Reported { counted: false, hidden: setup.hidden });
        }
        let hidden = repo::count_open_report(conn, setup_id, HIDE_AT_OPEN_REPORTS)?;
        Ok(Reported { counted: true, hidden: hidden || setup.hidden })
    })
}

/// Whether `viewer` may see a setup: not hidden (or their own), and not reported by them.
pub fn visible_to(
    conn: &mut DbConnection,
    setup_id: i64,
    viewer: Option<i64>,
) -> Result<bool, CommunityError> {
    let Some(setup) = repo::find_setup(conn, setup_id)? else { return Ok(false) };
    let own = viewer == Some(setup.user_id);
    if setup.hidden && !own {
        return Ok(false);
    }
    match viewer {
        Some(viewer) if !own => Ok(!repo::has_reported(conn, setup_id, viewer)?),
        _ => Ok(true),
    }
}
