//! The daily check of the links members put on their RigPages: the same [`checker`] as the
//! catalogue's (redirects followed by hand, every hop checked against forbidden addresses),
//! judged for a creator's page rather than for an affiliate's earnings, with the result
//! kept by [`link_health`] and the owner told when a link goes dead.
//!
//! Called by the server every few minutes for a small batch, so each link is checked about
//! once a day without a burst of requests. A batch in which most links could not be reached
//! says more about the server than about the links (no internet): nothing is recorded then.

use chrono::{DateTime, Utc};
use setupiq_db::{Db, write_transaction};
use setupiq_rigpage::service::link_health::{self, Checked};

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

/// Claims up to `limit` due links, checks them and records what was seen; the owner of each
/// link that went dead gets a notification in the same transaction.
pub async fn check_due(
    db: &Db,
    config: &CheckerConfig,
    now: DateTime<Utc>,
    limit: i64,
) -> Result<BatchSummary, AdminError> {
    let due = db.run(move |conn| link_health::claim_due(conn, now, limit).map_err(AdminError::from)).await?;
    if due.is_empty() {
        return Ok(BatchSummary::default());
    }
    let links = due.iter().map(|l| LinkToCheck { id: l.link_id, url: l.url.clone() }).collect();
    let results = checker::check_all(links, config).await;
    if mostly_unreachable(&results).is_some() {
        return Ok(BatchSummary { checked: results.len(), went_dead: 0, unreachable: true });
    }
    db.run(move |conn| {
        write_transaction(conn, |conn| {
            let mut summary = BatchSummary { checked: results.len(), ..BatchSummary::default() };
            for (link, result) in due.iter().zip(&results) {
                if let Some(dead) = link_health::record(conn, link, judged(&result.verdict))? {
                    setupiq_community::service::notifications::on_rigpage_link_dead(
                        conn,
                        dead.owner_id,
                        &dead.label,
                        now,
                    )?;
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
