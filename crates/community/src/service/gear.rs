//! The gear of a post (issue 59, DESIGN.md §5 "gear"): its owner lists up to [`MAX_ITEMS`]
//! pieces (a name, a category, optionally where to buy it) and replaces the whole list at
//! once. Everyone sees the names and categories and whether an item has a link, never the
//! URL itself: a link is followed through `/go/gear/{id}` ([`follow`]), which sends the
//! visitor to the URL the item holds or, without one, to the affiliate link of the active
//! catalogue product its name matches, and counts the click as product clicks are counted
//! (bots kept and never counted, the post's owner not recorded). The items' own URLs join
//! the daily link check ([`super::gear_link_health`]); the owner sees which are dead.

use std::collections::HashMap;

use chrono::{DateTime, NaiveDateTime, Utc};
use setupiq_affiliate::service::{CatalogueLink, match_key};
use setupiq_core::feed_changes::FeedChanges;
use setupiq_core::{GearId, SetupId, UserId};
use setupiq_db::{DbConnection, write_transaction};
use setupiq_rigpage::service::link_health::LinkHealth;

use super::reports;
use crate::error::CommunityError;
pub use crate::models::GearCategory;
use crate::models::{GearClickInsertForm, GearInsertForm, GearRow};
use crate::repo;

/// The most pieces of gear a post lists.
pub const MAX_ITEMS: usize = 20;
/// The longest name, in characters after trimming.
pub const MAX_NAME: usize = 80;
/// The longest link, in bytes (as a RigPage link).
pub const MAX_URL: usize = 2048;

/// A piece of gear as the owner sends it.
#[derive(Debug, Clone, Copy)]
pub struct NewGear<'a> {
    pub name: &'a str,
    pub category: GearCategory,
    /// Empty or none: no link of its own.
    pub url: Option<&'a str>,
}

/// A piece of gear as everyone sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GearItem {
    pub id: GearId,
    pub name: String,
    pub category: GearCategory,
    /// It has a link of its own or matches an active catalogue product: `/go/gear/{id}` leads
    /// somewhere.
    pub has_link: bool,
}

/// A piece of gear as its owner sees it: the URL they gave and people's clicks on it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OwnGearItem {
    pub id: GearId,
    pub name: String,
    pub category: GearCategory,
    pub url: Option<String>,
    pub has_link: bool,
    pub clicks: i64,
    /// The daily link check found its own URL dead ([`super::gear_link_health`]).
    pub link_dead: bool,
}

/// Whether a link may be stored: `http:` or `https:` with a host that is no loopback name and
/// no private, loopback or link-local address (the link checker's rules,
/// [`setupiq_core::net::is_public_web_url`]), at most [`MAX_URL`] bytes.
pub fn is_allowed_url(url: &str) -> bool {
    setupiq_core::net::is_public_web_url(url, MAX_URL)
}

/// The list as it will be stored: names trimmed, empty URLs none; refused as a whole when
/// one item breaks a rule.
fn checked<'a>(items: &[NewGear<'a>]) -> Result<Vec<NewGear<'a>>, CommunityError> {
    if items.len() > MAX_ITEMS {
        return Err(CommunityError::TooMuchGear);
    }
    items
        .iter()
        .map(|item| {
            let name = item.name.trim();
            if name.is_empty() || name.chars().count() > MAX_NAME {
                return Err(CommunityError::GearNameLength);
            }
            let url = item.url.map(str::trim).filter(|u| !u.is_empty());
            if url.is_some_and(|u| !is_allowed_url(u)) {
                return Err(CommunityError::GearUrl);
            }
            Ok(NewGear { name, category: item.category, url })
        })
        .collect()
}

/// Replaces the gear of `setup_id`, its owner's only, with `items` in their order, in one
/// transaction (an empty list removes it); returns the list as stored. The feed's cards
/// change (recorded after the commit).
pub fn replace(
    conn: &mut DbConnection,
    user_id: UserId,
    setup_id: SetupId,
    items: &[NewGear<'_>],
    changes: &FeedChanges,
) -> Result<Vec<OwnGearItem>, CommunityError> {
    let items = checked(items)?;
    let saved = write_transaction(conn, |conn| {
        let setup = repo::find_setup(conn, setup_id)?.ok_or(CommunityError::SetupNotFound)?;
        if setup.user_id != user_id {
            return Err(CommunityError::NotOwner);
        }
        repo::delete_gear_of(conn, setup_id)?;
        let forms: Vec<GearInsertForm<'_>> = items
            .iter()
            .zip(0..)
            .map(|(item, position)| GearInsertForm {
                setup_id,
                position,
                name: item.name,
                category: item.category,
                url: item.url,
            })
            .collect();
        repo::insert_gear(conn, &forms)?;
        own_list(conn, setup_id)
    })?;
    changes.content_changed();
    Ok(saved)
}

/// The gear of `setup_id` as its owner sees it (the URLs, the clicks); "Only the owner can
/// change this setup." for anyone else.
pub fn own(
    conn: &mut DbConnection,
    user_id: UserId,
    setup_id: SetupId,
) -> Result<Vec<OwnGearItem>, CommunityError> {
    let setup = repo::find_setup(conn, setup_id)?.ok_or(CommunityError::SetupNotFound)?;
    if setup.user_id != user_id {
        return Err(CommunityError::NotOwner);
    }
    own_list(conn, setup_id)
}

fn own_list(conn: &mut DbConnection, setup_id: SetupId) -> Result<Vec<OwnGearItem>, CommunityError> {
    let rows = repo::gear_of(conn, &[setup_id])?;
    let matched = catalogue_matches(conn, &rows)?;
    let ids: Vec<GearId> = rows.iter().map(|r| r.id).collect();
    let clicks = repo::gear_item_click_counts(conn, &ids)?;
    Ok(rows
        .into_iter()
        .map(|row| OwnGearItem {
            has_link: row.url.is_some() || matched.contains_key(&match_key(&row.name)),
            clicks: clicks.get(&row.id).copied().unwrap_or(0),
            link_dead: row.url.is_some() && row.health == LinkHealth::Dead,
            id: row.id,
            name: row.name,
            category: row.category,
            url: row.url,
        })
        .collect())
}

/// The active catalogue products the rows' names match, in one query.
fn catalogue_matches(
    conn: &mut DbConnection,
    rows: &[GearRow],
) -> Result<HashMap<String, CatalogueLink>, CommunityError> {
    let names: Vec<&str> = rows.iter().filter(|r| r.url.is_none()).map(|r| r.name.as_str()).collect();
    Ok(setupiq_affiliate::service::active_named(conn, &names)?)
}

/// The gear of each setup as everyone sees it, in two queries however many setups.
pub(crate) fn lists_of(
    conn: &mut DbConnection,
    setup_ids: &[SetupId],
) -> Result<HashMap<SetupId, Vec<GearItem>>, CommunityError> {
    if setup_ids.is_empty() {
        return Ok(HashMap::new());
    }
    let rows = repo::gear_of(conn, setup_ids)?;
    let matched = catalogue_matches(conn, &rows)?;
    let mut lists: HashMap<SetupId, Vec<GearItem>> = HashMap::new();
    for row in rows {
        let has_link = row.url.is_some() || matched.contains_key(&match_key(&row.name));
        lists.entry(row.setup_id).or_default().push(GearItem {
            id: row.id,
            name: row.name,
            category: row.category,
            has_link,
        });
    }
    Ok(lists)
}

/// The gear of `owner_id`'s post of `analysis_id` as the RigPage's "My gear" block shows it:
/// none when the analysis has no post, or its post is hidden. A failure to read it is logged
/// and shows no gear (the block goes, the page stays).
pub fn page_gear(
    conn: &mut DbConnection,
    owner_id: UserId,
    analysis_id: setupiq_core::AnalysisId,
) -> Vec<setupiq_rigpage::service::public::PageGear> {
    let read = |conn: &mut DbConnection| -> Result<Vec<GearItem>, CommunityError> {
        let Some(setup_id) = repo::setup_of_analysis(conn, analysis_id)? else { return Ok(Vec::new()) };
        let Some(setup) = repo::find_setup(conn, setup_id)? else { return Ok(Vec::new()) };
        if setup.user_id != owner_id || setup.hidden {
            return Ok(Vec::new());
        }
        Ok(lists_of(conn, &[setup_id])?.remove(&setup_id).unwrap_or_default())
    };
    match read(conn) {
        Ok(items) => items
            .into_iter()
            .map(|item| setupiq_rigpage::service::public::PageGear {
                id: item.id,
                name: item.name,
                category: item.category.label().to_owned(),
                has_link: item.has_link,
            })
            .collect(),
        Err(error) => {
            tracing::warn!(error = %setupiq_core::error::chain(&error), "the RigPage's gear could not be read");
            Vec::new()
        }
    }
}

/// People's clicks on the gear of each setup (bots aside), for My Posts.
pub(crate) fn click_counts(
    conn: &mut DbConnection,
    setup_ids: &[SetupId],
) -> Result<HashMap<SetupId, i64>, CommunityError> {
    if setup_ids.is_empty() {
        return Ok(HashMap::new());
    }
    Ok(repo::gear_click_counts(conn, setup_ids)?)
}

/// Who follows a gear link.
#[derive(Debug, Clone, Copy)]
pub struct Follower {
    /// The signed-in viewer, if any.
    pub viewer: Option<UserId>,
    /// Sent by a crawler or a tool (by its User-Agent): recorded, never counted.
    pub is_bot: bool,
}

/// Where `/go/gear/{id}` sends `follower`: the URL the item holds or, without one, the
/// affiliate link of the active catalogue product its name matches; the click is recorded in
/// the same transaction unless the post is the follower's own. "Gear not found." for an
/// unknown id, an item of a post the follower may not see, and an item with neither.
pub fn follow(
    conn: &mut DbConnection,
    follower: Follower,
    gear_id: GearId,
    now: DateTime<Utc>,
) -> Result<String, CommunityError> {
    write_transaction(conn, |conn| {
        let item = repo::find_gear(conn, gear_id)?.ok_or(CommunityError::GearNotFound)?;
        if !reports::visible_to(conn, follower.viewer, item.setup_id)? {
            return Err(CommunityError::GearNotFound);
        }
        let (target, network) = match &item.url {
            // Checked when it was stored; checked again, so a rule made stricter since holds.
            Some(url) if is_allowed_url(url) => (url.clone(), network_of(url).to_owned()),
            Some(_) => return Err(CommunityError::GearNotFound),
            None => {
                let product = setupiq_affiliate::service::active_named(conn, &[item.name.as_str()])?
                    .remove(&match_key(&item.name))
                    .ok_or(CommunityError::GearNotFound)?;
                (product.link, product.network)
            }
        };
        let owner = repo::find_setup(conn, item.setup_id)?.ok_or(CommunityError::GearNotFound)?.user_id;
        if follower.viewer != Some(owner) {
            repo::insert_gear_click(
                conn,
                &GearClickInsertForm {
                    gear_id: item.id,
                    setup_id: item.setup_id,
                    user_id: follower.viewer,
                    category: item.category,
                    network: &network,
                    is_bot: follower.is_bot,
                    created_at: now.naive_utc(),
                },
            )?;
        }
        Ok(target)
    })
}

/// The affiliate network (`products.network`'s keys) a shop's URL belongs to, by its host;
/// `other` for any other shop.
pub fn network_of(url: &str) -> &'static str {
    let host = url::Url::parse(url).ok().and_then(|u| u.host_str().map(str::to_ascii_lowercase));
    let Some(host) = host else { return "other" };
    let labels: Vec<&str> = host.split('.').collect();
    let is = |name: &str| labels.iter().rev().skip(1).any(|label| *label == name);
    if is("amazon") || host.ends_with("amzn.to") {
        "amazon"
    } else if is("bhphotovideo") {
        "bh_photo"
    } else if is("bestbuy") {
        "best_buy"
    } else if is("microcenter") {
        "micro_center"
    } else if is("newegg") {
        "newegg"
    } else {
        "other"
    }
}

/// Gear clicks by people over a period, for the admin's analytics.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GearClickStats {
    pub total: i64,
    /// Most clicked first (ties: A to Z); categories nobody clicked are left out.
    pub by_category: Vec<(GearCategory, i64)>,
    /// By `products.network` key (`other` for any other shop), most clicked first.
    pub by_network: Vec<(String, i64)>,
}

/// People's gear clicks (bots never count) since `since` (none: all time).
pub fn click_stats(
    conn: &mut DbConnection,
    since: Option<NaiveDateTime>,
) -> Result<GearClickStats, CommunityError> {
    let (categories, networks) = repo::gear_clicks_by(conn, since)?;
    let mut by_category: Vec<(GearCategory, i64)> =
        categories.into_iter().filter_map(|(c, n)| Some((c.parse().ok()?, n))).collect();
    by_category.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let mut by_network = networks;
    by_network.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    Ok(GearClickStats { total: by_network.iter().map(|(_, n)| n).sum(), by_category, by_network })
}

#[cfg(test)]
mod tests {
    use super::network_of;

    #[test]
    fn a_shops_url_names_its_network() {
        assert_eq!(network_of("https://www.amazon.com/dp/B0X"), "amazon");
        assert_eq!(network_of("https://amazon.co.uk/dp/B0X"), "amazon");
        assert_eq!(network_of("https://amzn.to/3abc"), "amazon");
        assert_eq!(network_of("https://www.bestbuy.com/site/x"), "best_buy");
        assert_eq!(network_of("https://www.newegg.com/p/x"), "newegg");
        assert_eq!(network_of("https://notamazon.com/x"), "other");
        assert_eq!(network_of("https://shop.example.com/arm"), "other");
    }
}
