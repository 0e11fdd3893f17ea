//! What a visitor sees: the enabled page of a slug (any case) with its owner's name, the
//! showcased setup and the links that are switched on; the same for the editor's preview
//! of a draft; and where a renamed page's old address leads.

use std::sync::OnceLock;

use chrono::{DateTime, Utc};
use setupiq_analysis::service::SavedAnalysis;
use setupiq_core::{AnalysisId, GearId, LinkId, UserId};
use setupiq_db::DbConnection;

use super::config::{self, Link, Settings, slug_key};
use crate::error::RigpageError;
use crate::repo;

/// A page ready to render.
#[derive(Debug, Clone, PartialEq)]
pub struct PublicPage {
    pub owner_id: UserId,
    pub username: String,
    pub display_name: String,
    pub profile_picture: Option<String>,
    /// The page's settings; `links` holds only the links that are switched on.
    pub settings: Settings,
    pub setup: Option<Showcase>,
    /// The showcased setup's gear, when the page shows it ("My gear").
    pub gear: Vec<PageGear>,
}

/// A piece of the showcased setup's gear, as the "My gear" block shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageGear {
    pub id: GearId,
    pub name: String,
    /// The category's display name ("Monitor", "PC").
    pub category: String,
    /// Shopped through `/go/gear/{id}`.
    pub has_link: bool,
}

/// The gear of an owner's analysis as its live community post lists it (none without one).
/// The community owns posts and their gear and sits above this crate, so the gateway
/// registers its function here once at start ([`register_gear_source`]); a process that
/// registered none shows no gear. A failure to read it leaves the block out, never the page.
pub type GearSource = fn(&mut DbConnection, UserId, AnalysisId) -> Vec<PageGear>;

static GEAR_SOURCE: OnceLock<GearSource> = OnceLock::new();

/// Names where the "My gear" block reads the gear (the gateway, at start; later calls keep
/// the first).
pub fn register_gear_source(source: GearSource) {
    let _ = GEAR_SOURCE.set(source);
}

/// The analysed setup a page shows.
#[derive(Debug, Clone, PartialEq)]
pub struct Showcase {
    pub image_url: String,
    /// A small version, for the blurred hero.
    pub thumbnail_url: Option<String>,
    pub overall_rating: f64,
    pub created_at: DateTime<Utc>,
}

impl From<&SavedAnalysis> for Showcase {
    fn from(a: &SavedAnalysis) -> Self {
        Self {
            image_url: a.image.as_ref().map(|k| k.url()).unwrap_or_default(),
            thumbnail_url: a.thumbnail.as_ref().map(|k| k.url()),
            overall_rating: a.report.assessment.overall_score,
            created_at: a.created_at,
        }
    }
}

/// What `/rig/{slug}` leads to.
pub enum Found {
    Page(Box<PublicPage>),
    /// The old address of a renamed page: its slug now.
    MovedTo(String),
}

/// The public page of `slug`, or where it moved; none for an unknown or private one.
pub fn resolve(
    conn: &mut DbConnection,
    slug: &str,
    now: DateTime<Utc>,
) -> Result<Option<Found>, RigpageError> {
    if let Some(page) = find(conn, slug)? {
        return Ok(Some(Found::Page(Box::new(page))));
    }
    Ok(moved_to(conn, slug, now)?.map(Found::MovedTo))
}

/// Where a renamed page went: the current slug of the page whose old address `slug` was,
/// while its hold lasts and the page is public.
fn moved_to(conn: &mut DbConnection, slug: &str, now: DateTime<Utc>) -> Result<Option<String>, RigpageError> {
    let Some(hold) = repo::slug_hold(conn, &slug_key(slug))? else { return Ok(None) };
    let Some(owner) = hold.redirect_user_id.filter(|_| hold.until > now.naive_utc()) else { return Ok(None) };
    Ok(repo::find_page(conn, owner)?.filter(|page| page.enabled).and_then(|page| page.slug))
}

/// The enabled page of `slug` (in any case); none for an unknown or private slug.
pub fn find(conn: &mut DbConnection, slug: &str) -> Result<Option<PublicPage>, RigpageError> {
    let Some(row) = repo::find_page_by_slug(conn, &slug_key(slug))? else { return Ok(None) };
    if !row.enabled {
        return Ok(None);
    }
    let owner_id = row.user_id;
    let mut editor = config::editor_of(row, repo::links_of(conn, owner_id)?)?;
    editor.settings.links.retain(|l| l.enabled);
    let setup = match editor.settings.setup_id {
        Some(id) => setupiq_analysis::service::find_for_owner(conn, owner_id, id).ok(),
        None => None,
    };
    page_of(conn, owner_id, editor.settings, setup.as_ref()).map(Some)
}

/// The links the preview shows on a page that has none yet.
pub fn sample_links() -> Vec<Link> {
    [
        ("My Stream", "https://www.twitch.tv/"),
        ("Latest Video", "https://www.youtube.com/"),
        ("My Gear", "https://example.com/"),
    ]
    .into_iter()
    .map(|(label, url)| Link {
        id: None,
        label: label.into(),
        url: url.into(),
        section: None,
        image_url: None,
        enabled: true,
    })
    .collect()
}

/// The page a draft would make, checked like a save (the setup and images must be the
/// user's own), with sample links when it has none.
pub fn preview(
    conn: &mut DbConnection,
    user_id: UserId,
    draft: Settings,
) -> Result<PublicPage, RigpageError> {
    let mut draft = draft;
    let setup = config::check_draft(conn, user_id, &draft)?;
    draft.links.retain(|l| l.enabled);
    if draft.links.is_empty() {
        draft.links = sample_links();
    }
    page_of(conn, user_id, draft, setup.as_ref())
}

fn page_of(
    conn: &mut DbConnection,
    owner_id: UserId,
    settings: Settings,
    setup: Option<&SavedAnalysis>,
) -> Result<PublicPage, RigpageError> {
    let owner = setupiq_auth::service::accounts::find(conn, owner_id)?.ok_or(RigpageError::NotFound)?;
    let gear = match (settings.show_gear, setup, GEAR_SOURCE.get()) {
        (true, Some(setup), Some(source)) => source(conn, owner_id, setup.id),
        _ => Vec::new(),
    };
    Ok(PublicPage {
        gear,
        owner_id,
        username: owner.username,
        display_name: owner.display_name,
        profile_picture: owner.profile_picture,
        settings,
        setup: setup.filter(|a| a.image.is_some()).map(Showcase::from),
    })
}

/// Where a visitor's click on `link_id` of the page `slug` goes: the page's owner and the
/// link's stored URL, only when the page is public and the link is its own and switched on.
pub fn link_target(
    conn: &mut DbConnection,
    slug: &str,
    link_id: LinkId,
) -> Result<Option<(UserId, String)>, RigpageError> {
    let Some(page) = repo::find_page_by_slug(conn, &slug_key(slug))? else { return Ok(None) };
    if !page.enabled {
        return Ok(None);
    }
    Ok(repo::find_link(conn, link_id)?
        .filter(|(owner, link)| *owner == page.user_id && link.enabled)
        .map(|(owner, link)| (owner, link.url)))
}
