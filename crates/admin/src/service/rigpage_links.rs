//! The daily check of the links members put on their RigPages, and of the gear links on
//! their live community posts (issue 59): the same [`checker`] as the catalogue's (redirects
//! followed by hand, every hop checked against forbidden addresses), judged for a creator's
//! page rather than for an affiliate's earnings, with the result kept by [`link_health`]
//! (RigPage links) or [`gear_link_health`] (gear), and the owner told when a link goes dead.
//!
//! Called by the server every few minutes for a small batch, so each link is checked about
//! once a day without a burst of requests: RigPage links first, gear links filling the rest
//! of the batch. A batch in which most links could not be reached says more about the server
//! than about the links (no internet): nothing is recorded then.

use std::fmt;

use chrono::{DateTime, Utc};
use setupiq_community::service::gear_link_health::{self, DueGearLink};
use setupiq_community::service::notifications;
use setupiq_core::{GearId, LinkId};
use setupiq_db::{Db, DbConnection, write_transaction};
use setupiq_rigpage::service::link_health::{self, Checked, DueLink};

use super::checker::{self, CheckerConfig, LinkToCheck, Verdict};
use super::links::mostly_unreachable;
use crate::error::AdminError;

/// Links checked per batch.
pub const BATCH: i64 = 20;

/// What a batch did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BatchSummary {
    pub checked: usize,
    /// Links found dead for the first time (their owners were told).
    pub went_dead: usize,
    /// Whether the results were left out because most links could not be reached.
    pub unreachable: bool,
}

/// How a creator's link fares. A merchant's home page or a dropped affiliate tag is a
/// working link here: the visitor lands on a page.
fn judged(verdict: &Verdict) -> Checked {
    match verdict {
        Verdict::Healthy | Verdict::HomePageRedirect | Verdict::TagDropped => Checked::Healthy,
        Verdict::BotCheck | Verdict::Unreachable(_) => Checked::Unknown,
        Verdict::Dead | Verdict::Timeout | Verdict::Error(_) | Verdict::Refused(_) => Checked::Failed,
    }
}

/// A link claimed for this batch: on a RigPage, or of a piece of gear on a post.
#[derive(Debug, Clone)]
enum Due {
    Page(DueLink),
    Gear(DueGearLink),
}

/// Which link a check result is about, as the checker logs it.
#[derive(Debug, Clone, Copy)]
enum DueId {
    Page(LinkId),
    Gear(GearId),
}

impl fmt::Display for DueId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Page(id) => write!(f, "RigPage link {id}"),
            Self::Gear(id) => write!(f, "gear {id}"),
        }
    }
}

impl Due {
    fn to_check(&self) -> LinkToCheck<DueId> {
        match self {
            Self::Page(link) => LinkToCheck { id: DueId::Page(link.link_id), url: link.url.clone() },
            Self::Gear(link) => LinkToCheck { id: DueId::Gear(link.gear_id), url: link.url.clone() },
        }
    }

    /// Records what the check saw; tells the owner when the link has just gone dead (true).
    fn record(
        &self,
        conn: &mut DbConnection,
        checked: Checked,
        now: DateTime<Utc>,
    ) -> Result<bool, AdminError> {
        match self {
            Self::Page(link) => {
                let Some(dead) = link_health::record(conn, link, checked)? else { return Ok(false) };
                notifications::on_rigpage_link_dead(conn, dead.owner_id, &dead.label, now)?;
            }
            Self::Gear(link) => {
                let Some(dead) = gear_link_health::record(conn, link, checked)? else { return Ok(false) };
                notifications::on_gear_link_dead(conn, dead.owner_id, dead.setup_id, &dead.name, now)?;
            }
        }
        Ok(true)
    }
}

/// Claims up to `limit` due links (RigPage links first, then gear links of live posts),
/// checks them and records what was seen; the owner of each link that went dead gets a
/// notification in the same transaction.
pub async fn check_due(
    db: &Db,
    config: &CheckerConfig,
    now: DateTime<Utc>,
    limit: i64,
) -> Result<BatchSummary, AdminError> {
    let due = db
        .run(move |conn| {
            let pages = link_health::claim_due(conn, now, limit)?;
            let rest = limit - i64::try_from(pages.len()).unwrap_or(limit);
            let gear = gear_link_health::claim_due(conn, now, rest)?;
            Ok::<_, AdminError>(
                pages.into_iter().map(Due::Page).chain(gear.into_iter().map(Due::Gear)).collect::<Vec<_>>(),
            )
        })
        .await?;
    if due.is_empty() {
        return Ok(BatchSummary::default());
    }
    let results = checker::check_all(due.iter().map(Due::to_check).collect(), config).await;
    if mostly_unreachable(&results).is_some() {
        return Ok(BatchSummary { checked: results.len(), went_dead: 0, unreachable: true });
    }
    db.run(move |conn| {
        write_transaction(conn, |conn| {
            let mut summary = BatchSummary { checked: results.len(), ..BatchSummary::default() };
            for (link, result) in due.iter().zip(&results) {
                if link.record(conn, judged(&result.verdict), now)? {
                    summary.went_dead += 1;
                }
            }
            Ok::<_, AdminError>(summary)
        })
    })
    .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_that_answers_is_working_even_when_it_is_a_shops_home_page() {
        assert_eq!(judged(&Verdict::Healthy), Checked::Healthy);
        assert_eq!(judged(&Verdict::HomePageRedirect), Checked::Healthy);
        assert_eq!(judged(&Verdict::TagDropped), Checked::Healthy);
        assert_eq!(judged(&Verdict::BotCheck), Checked::Unknown);
        assert_eq!(judged(&Verdict::Unreachable("dns".into())), Checked::Unknown);
        assert_eq!(judged(&Verdict::Dead), Checked::Failed);
        assert_eq!(judged(&Verdict::Refused("private".into())), Checked::Failed);
    }
}
