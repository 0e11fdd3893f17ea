//! Whether the gear links of live posts still lead somewhere (issue 59): each item with a
//! URL of its own, on a post that is not hidden, joins the daily RigPage link check (the admin
//! crate's `rigpage_links`, the same checker and judgement); an item matched to a catalogue
//! product is left to the catalogue's own check. The rules are the RigPage links'
//! ([`link_health`]): a link that fails twice in a row is dead and its post's owner told once
//! (the caller files the notification, [`notifications::on_gear_link_dead`]); a later
//! success heals it; the gear editor marks a dead link. Replacing the list starts its items
//! afresh, and the state goes with its item (and its post).
//!
//! A link is claimed before it is checked (its `checked_at` set to now), so two processes
//! never check it at once, and a result is recorded only while the item still has the
//! address that was checked and its post is live.
//!
//! [`notifications::on_gear_link_dead`]: super::notifications::on_gear_link_dead

use chrono::{DateTime, Utc};
use setupiq_core::{GearId, SetupId, UserId};
use setupiq_db::{DbConnection, DieselError};
use setupiq_rigpage::service::link_health::{self, Checked, LinkHealth, RECHECK_AFTER};

use crate::repo;

/// A gear link to check, claimed by this process.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DueGearLink {
    pub gear_id: GearId,
    pub url: String,
}

/// Claims up to `limit` gear links that are due (the item's own URL, on a live post, not
/// checked within [`RECHECK_AFTER`]), the longest unchecked first.
pub fn claim_due(
    conn: &mut DbConnection,
    now: DateTime<Utc>,
    limit: i64,
) -> Result<Vec<DueGearLink>, DieselError> {
    if limit <= 0 {
        return Ok(Vec::new());
    }
    let before = (now - RECHECK_AFTER).naive_utc();
    let mut claimed = Vec::new();
    for (gear_id, url) in repo::gear_links_due(conn, before, limit)? {
        if repo::claim_gear_link(conn, gear_id, before, now.naive_utc())? == 1 {
            claimed.push(DueGearLink { gear_id, url });
        }
    }
    Ok(claimed)
}

/// A gear link that a check has just found dead (the failure that made it so, never again
/// until it recovers or the list is replaced).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GearLinkWentDead {
    pub owner_id: UserId,
    pub setup_id: SetupId,
    pub gear_id: GearId,
    /// The item's name, as the notification names it.
    pub name: String,
}

/// Records a check of `link.url` with the RigPage links' judgement
/// ([`link_health::after_check`]). Nothing changes when the item is gone, its address
/// changed or its post was hidden during the check.
pub fn record(
    conn: &mut DbConnection,
    link: &DueGearLink,
    checked: Checked,
) -> Result<Option<GearLinkWentDead>, DieselError> {
    let Some(state) = repo::gear_link_state(conn, link.gear_id, &link.url)? else { return Ok(None) };
    let (health, failures) = link_health::after_check(state.health, state.consecutive_failures, checked);
    repo::set_gear_link_health(conn, link.gear_id, health, failures)?;
    let went_dead = health == LinkHealth::Dead && state.health != LinkHealth::Dead;
    Ok(went_dead.then_some(GearLinkWentDead {
        owner_id: state.owner_id,
        setup_id: state.setup_id,
        gear_id: link.gear_id,
        name: state.name,
    }))
}
