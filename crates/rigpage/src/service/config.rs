//! The editor's config: loading it (with the spec's defaults for a page never saved) and
//! saving it with the charges the server enforces, in one transaction (DESIGN.md §5):
//!
//! - the first Go Live (enabled false -> true) costs [`PUBLISH_COST`]; switching the page
//!   off and on again later is free;
//! - links beyond [`FREE_LINKS`] cost 1 credit per started batch of [`LINKS_PER_BATCH`],
//!   each batch paid once per account (a high-water mark: removing links and adding them
//!   back costs nothing);
//! - too few credits: nothing is saved.

use chrono::{DateTime, Duration, Utc};
use serde::{Deserialize, Serialize};
use setupiq_analysis::service::{InputType, SavedAnalysis, find_for_owner};
use setupiq_auth::service::export::{Section, SectionError};
use setupiq_auth::service::ledger::{self, LedgerReason};
use setupiq_core::media::MediaKey;
use setupiq_core::{AnalysisId, LinkId, UserId};
use setupiq_db::{AppCtx, DbConnection, DieselError, is_unique_violation, write_transaction};

use super::themes::{ButtonStyle, FontStyle, Theme};
use super::{PublicPages, images};
use crate::error::RigpageError;
use crate::models::{LinkChangeset, LinkHealth, LinkInsertForm, LinkRow, RigpageForm, RigpageRow};
use crate::repo::{self, SlugHold};

pub const PUBLISH_COST: i32 = 1;
pub const FREE_LINKS: usize = 5;
pub const LINKS_PER_BATCH: usize = 10;
/// The most links a page may hold (10 paid batches).
pub const MAX_LINKS: usize = 105;
pub const MAX_SECTIONS: usize = 20;

/// Slugs that would shadow a page of the site or confuse visitors.
pub const RESERVED_SLUGS: &[&str] = &[
    "about",
    "account",
    "admin",
    "administrator",
    "affiliate-disclaimer",
    "api",
    "app",
    "assets",
    "auth",
    "buy-credits",
    "community",
    "contact",
    "credits",
    "dashboard",
    "docs",
    "edit",
    "go",
    "help",
    "home",
    "impressum",
    "login",
    "logout",
    "me",
    "media",
    "my-posts",
    "my-setups",
    "new",
    "null",
    "official",
    "config",
    "images",
    "preview",
    "privacy",
    "qr",
    "stats",
    "themes",
    "privacy-policy",
    "profile",
    "register",
    "reset-password",
    "results",
    "rig",
    "rigpage",
    "rigpage-config",
    "root",
    "settings",
    "setupiq",
    "signin",
    "signup",
    "static",
    "support",
    "system",
    "terms",
    "tips",
    "undefined",
    "user",
    "users",
    "www",
];

/// The platforms a page may link to. `email` and `vimeo` are kept for the creator; the
/// public page shows icons for the first six and never the e-mail.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct SocialLinks {
    pub twitch: Option<String>,
    pub tiktok: Option<String>,
    pub youtube: Option<String>,
    pub discord: Option<String>,
    pub twitter: Option<String>,
    pub instagram: Option<String>,
    pub email: Option<String>,
    pub vimeo: Option<String>,
}

impl SocialLinks {
    /// The non-empty links a visitor may see, in the page's order (never the e-mail).
    pub fn public(&self) -> Vec<(&'static str, &str)> {
        [
            ("twitch", &self.twitch),
            ("tiktok", &self.tiktok),
            ("youtube", &self.youtube),
            ("discord", &self.discord),
            ("twitter", &self.twitter),
            ("instagram", &self.instagram),
            ("vimeo", &self.vimeo),
        ]
        .into_iter()
        .filter_map(|(name, url)| url.as_deref().filter(|u| !u.is_empty()).map(|u| (name, u)))
        .collect()
    }
}

/// One custom link of a page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Link {
    /// Set for a saved link; a new one has none (or an id that is not the user's).
    pub id: Option<LinkId>,
    pub label: String,
    pub url: String,
    pub section: Option<String>,
    pub image_url: Option<String>,
    /// A link switched off stays in the editor but not on the page.
    pub enabled: bool,
}

/// Everything the creator edits, normalised (texts trimmed, empty as none).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    pub enabled: bool,
    pub show_on_community: bool,
    pub slug: Option<String>,
    pub setup_id: Option<AnalysisId>,
    pub avatar: Option<String>,
    pub tagline: Option<String>,
    pub bio: Option<String>,
    pub socials: SocialLinks,
    pub theme: Theme,
    pub highlight_color: String,
    pub font: FontStyle,
    pub button: ButtonStyle,
    pub corner_radius: i32,
    pub background: Option<String>,
    pub overlay: String,
    pub blur: i32,
    pub opacity: i32,
    pub show_setup_in_background: bool,
    /// The "My gear" block: the showcased setup's gear, from its community post (issue 59).
    pub show_gear: bool,
    pub sections: Vec<String>,
    pub links: Vec<Link>,
}

impl Default for Settings {
    /// The spec's editor defaults (§4 "Editor loading", §9).
    fn default() -> Self {
        Self {
            enabled: false,
            show_on_community: false,
            slug: None,
            setup_id: None,
            avatar: None,
            tagline: None,
            bio: None,
            socials: SocialLinks::default(),
            theme: Theme::DarkNeon,
            highlight_color: "#8B5CF6".into(),
            font: FontStyle::SansSerif,
            button: ButtonStyle::Solid,
            corner_radius: 50,
            background: None,
            overlay: "#000000".into(),
            blur: 20,
            opacity: 50,
            show_setup_in_background: false,
            show_gear: false,
            sections: Vec::new(),
            links: Vec::new(),
        }
    }
}

impl Settings {
    /// The keys of the uploaded images the page shows (avatar, background, link images).
    pub(crate) fn media_keys(&self) -> Vec<String> {
        [&self.avatar, &self.background]
            .into_iter()
            .chain(self.links.iter().map(|l| &l.image_url))
            .flatten()
            .filter_map(|url| MediaKey::from_url(url))
            .map(|k| k.as_str().to_owned())
            .collect()
    }
}

/// The editor's view of a user's page.
#[derive(Debug, Clone, PartialEq)]
pub struct Editor {
    pub settings: Settings,
    /// Whether the page was ever saved (else `settings` are the defaults).
    pub saved: bool,
    /// Whether the first Go Live was paid (going live again is free).
    pub ever_published: bool,
    /// Batches of links paid so far (the high-water mark).
    pub paid_link_batches: i32,
    /// The saved links the daily check found dead.
    pub dead_links: Vec<LinkId>,
}

impl Editor {
    /// What a save of `settings` would cost now.
    pub fn cost_of(&self, settings: &Settings) -> Charge {
        Charge {
            publish: settings.enabled && !self.ever_published,
            link_batches: (link_batches(settings.links.len()) - self.paid_link_batches).max(0),
        }
    }
}

/// What one save cost.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Charge {
    /// The first Go Live.
    pub publish: bool,
    /// New batches of links.
    pub link_batches: i32,
}

impl Charge {
    pub fn credits(self) -> i32 {
        i32::from(self.publish) * PUBLISH_COST + self.link_batches
    }
}

/// The result of a save.
#[derive(Debug, Clone, PartialEq)]
pub struct Saved {
    pub editor: Editor,
    pub charge: Charge,
    /// The balance after the save.
    pub credits: i32,
    /// Images the save stopped using: the caller removes them from the media store.
    pub unused_media: Vec<MediaKey>,
    /// The slug before the save (its cached page is stale now).
    pub previous_slug: Option<String>,
}

/// Batches of [`LINKS_PER_BATCH`] links needed for `links` beyond the free ones.
pub fn link_batches(links: usize) -> i32 {
    let paid = links.saturating_sub(FREE_LINKS);
    i32::try_from(paid.div_ceil(LINKS_PER_BATCH)).unwrap_or(i32::MAX)
}

/// The slug's key: slugs are unique without regard to case.
pub fn slug_key(slug: &str) -> String {
    slug.to_ascii_lowercase()
}

/// How long the slug of a deleted account's page stays held: the links people shared keep
/// leading nowhere rather than to someone else's page.
pub const DELETED_SLUG_HOLD: Duration = Duration::days(30);
/// How long a renamed page's old address leads to the new one, held for its owner.
pub const RENAMED_SLUG_HOLD: Duration = Duration::days(90);

/// Registered with the account deletion: holds the page's slug for [`DELETED_SLUG_HOLD`] and
/// returns the page's images for removal.
pub fn on_account_deleted(
    conn: &mut DbConnection,
    user_id: UserId,
    now: DateTime<Utc>,
) -> Result<Vec<MediaKey>, DieselError> {
    if let Some(slug) = repo::find_page(conn, user_id)?.and_then(|page| page.slug) {
        let hold = SlugHold { until: (now + DELETED_SLUG_HOLD).naive_utc(), redirect_user_id: None };
        repo::hold_slug(conn, &slug_key(&slug), hold, now.naive_utc())?;
    }
    images::media_of_user(conn, user_id)
}

/// The user's saved page with its links (`null` when never saved), for their data export
/// (`rigpage`).
pub fn export_page(conn: &mut DbConnection, user_id: UserId) -> Result<Section, SectionError> {
    let page = match repo::find_page(conn, user_id)? {
        Some(row) => {
            let links = repo::links_of(conn, user_id)?;
            Some(crate::dto::RigpageConfigDto::from(editor_of(row, links)?.settings))
        }
        None => None,
    };
    Section::new("rigpage", &page)
}

/// A page of the site, or a name reserved for the team's own accounts (any case).
pub fn is_reserved(slug: &str) -> bool {
    RESERVED_SLUGS.contains(&slug_key(slug).as_str())
        || setupiq_auth::service::accounts::is_reserved_username(slug)
}

/// The user's page as the editor loads it; a page never saved gets the defaults, the
/// username as its slug when that is free, and their best-scoring photo analysis as its
/// setup (the newest of equals): the page shows off the member's best, as the editor's
/// "Your Best Score" says, until they pick another.
pub fn load(conn: &mut DbConnection, user_id: UserId, username: &str) -> Result<Editor, RigpageError> {
    if let Some(row) = repo::find_page(conn, user_id)? {
        let links = repo::links_of(conn, user_id)?;
        return editor_of(row, links);
    }
    let mut settings = Settings::default();
    // A slug held for a deleted account, even one whose hold ran out today, is not offered.
    let key = slug_key(username);
    let free = repo::slug_holder(conn, &key)?.is_none() && repo::slug_hold(conn, &key)?.is_none();
    if free && is_valid_slug(username) && !is_reserved(username) {
        settings.slug = Some(username.to_owned());
    }
    if let Some(best) = best_photo_analysis(conn, user_id)? {
        settings.setup_id = Some(best.id);
        settings.blur = 5;
        settings.opacity = 100;
        settings.show_setup_in_background = true;
    }
    Ok(Editor { settings, saved: false, ever_published: false, paid_link_batches: 0, dead_links: Vec::new() })
}

/// 3-30 letters, digits, hyphens and underscores (the DTO says which rule failed).
pub fn is_valid_slug(slug: &str) -> bool {
    (3..=30).contains(&slug.len())
        && slug.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// The user's newest analysis of a photo, for the setup picker's default.
fn best_photo_analysis(
    conn: &mut DbConnection,
    user_id: UserId,
) -> Result<Option<SavedAnalysis>, RigpageError> {
    let (analyses, _) = setupiq_analysis::service::list_for_owner(conn, user_id, 50, 0)?;
    // Newest first: `reduce` keeps the earlier (newer) of two equal scores.
    Ok(analyses.into_iter().filter(|a| a.input_type == InputType::Image && a.image.is_some()).reduce(
        |best, a| {
            if a.report.assessment.overall_score > best.report.assessment.overall_score { a } else { best }
        },
    ))
}

/// Checks what only the database can tell: the slug is free and not reserved, a live page
/// has a slug and a setup, and everything [`check_draft`] checks. Returns the showcased
/// analysis.
pub fn check(
    conn: &mut DbConnection,
    user_id: UserId,
    settings: &Settings,
    now: DateTime<Utc>,
) -> Result<Option<SavedAnalysis>, RigpageError> {
    if let Some(slug) = &settings.slug {
        if is_reserved(slug) {
            return Err(RigpageError::SlugReserved);
        }
        let key = slug_key(slug);
        if repo::slug_holder(conn, &key)?.is_some_and(|holder| holder != user_id) {
            return Err(RigpageError::SlugTaken);
        }
        // Held for a deleted account, or for someone's renamed page (they may take it back).
        if repo::slug_hold(conn, &key)?
            .is_some_and(|hold| hold.until > now.naive_utc() && hold.redirect_user_id != Some(user_id))
        {
            return Err(RigpageError::SlugTaken);
        }
    }
    let setup = check_draft(conn, user_id, settings)?;
    if settings.enabled && (settings.slug.is_none() || setup.is_none()) {
        return Err(RigpageError::GoLiveNeedsSlugAndSetup);
    }
    Ok(setup)
}

/// What a draft (a preview) must pass too: the setup is one of the user's own photo
/// analyses, every image is one they uploaded, every link's section exists.
pub fn check_draft(
    conn: &mut DbConnection,
    user_id: UserId,
    settings: &Settings,
) -> Result<Option<SavedAnalysis>, RigpageError> {
    let setup = match settings.setup_id {
        Some(id) => match find_for_owner(conn, user_id, id) {
            Ok(analysis) if analysis.input_type == InputType::Image && analysis.image.is_some() => {
                Some(analysis)
            }
            Ok(_) | Err(setupiq_analysis::AnalysisError::NotFound) => {
                return Err(RigpageError::SetupNotYours);
            }
            Err(other) => return Err(other.into()),
        },
        None => None,
    };
    let images = [
        ("rigpageAvatar".to_owned(), &settings.avatar),
        ("backgroundImage".to_owned(), &settings.background),
    ]
    .into_iter()
    .chain(settings.links.iter().enumerate().map(|(i, l)| (format!("links.{i}.imageUrl"), &l.image_url)));
    for (field, url) in images {
        if let Some(url) = url
            && !images::is_owned(conn, user_id, url)?
        {
            return Err(RigpageError::ImageNotYours { field });
        }
    }
    for (i, link) in settings.links.iter().enumerate() {
        if let Some(section) = &link.section
            && !settings.sections.contains(section)
        {
            return Err(RigpageError::UnknownSection { field: format!("links.{i}.section") });
        }
    }
    Ok(setup)
}

/// [`save`] as the editor asks it: the page's kept rendering (under its old and new slug)
/// is dropped on this replica, and images the save stopped using leave the media store.
pub async fn save_page(
    ctx: &AppCtx,
    pages: &PublicPages,
    user_id: UserId,
    settings: Settings,
) -> Result<Saved, RigpageError> {
    let now = ctx.clock.now();
    let saved = ctx.db.run(move |conn| save(conn, user_id, &settings, now)).await?;
    for slug in saved.previous_slug.iter().chain(saved.editor.settings.slug.iter()) {
        pages.cache.forget(&slug_key(slug));
    }
    ctx.media.remove_media(saved.unused_media.iter()).await;
    Ok(saved)
}

/// Saves the page and takes what it costs, in one transaction; nothing is saved when the
/// balance is short. Concurrent saves of one user queue on their account row, so ten
/// parallel Go Live requests pay once.
pub fn save(
    conn: &mut DbConnection,
    user_id: UserId,
    settings: &Settings,
    now: DateTime<Utc>,
) -> Result<Saved, RigpageError> {
    write_transaction(conn, |conn| {
        ledger::lock_account(conn, user_id)?;
        let current = repo::find_page(conn, user_id)?;
        check(conn, user_id, settings, now)?;
        let before = match current {
            Some(row) => editor_of(row, repo::links_of(conn, user_id)?)?,
            None => Editor {
                settings: Settings::default(),
                saved: false,
                ever_published: false,
                paid_link_batches: 0,
                dead_links: Vec::new(),
            },
        };
        let charge = before.cost_of(settings);
        let credits = take_credits(conn, user_id, charge, now)?;

        let socials = serde_json::to_string(&settings.socials).map_err(RigpageError::corrupt)?;
        let sections = serde_json::to_string(&settings.sections).map_err(RigpageError::corrupt)?;
        let key = settings.slug.as_deref().map(slug_key);
        let form = RigpageForm {
            user_id,
            enabled: settings.enabled,
            show_on_community: settings.show_on_community,
            slug: settings.slug.as_deref(),
            slug_key: key.as_deref(),
            setup_id: settings.setup_id,
            avatar_url: settings.avatar.as_deref(),
            tagline: settings.tagline.as_deref(),
            bio: settings.bio.as_deref(),
            social_links_json: &socials,
            theme: settings.theme.as_str(),
            highlight_color: &settings.highlight_color,
            font_style: settings.font.as_str(),
            button_style: settings.button.as_str(),
            corner_radius: settings.corner_radius,
            background_url: settings.background.as_deref(),
            background_overlay: &settings.overlay,
            background_blur: settings.blur,
            background_opacity: settings.opacity,
            show_setup_in_background: settings.show_setup_in_background,
            show_gear: settings.show_gear,
            sections_json: &sections,
            ever_published: before.ever_published || settings.enabled,
            paid_link_batches: before.paid_link_batches + charge.link_batches,
            updated_at: now.naive_utc(),
        };
        match repo::upsert_page(conn, &form) {
            Err(e) if is_unique_violation(&e) => return Err(RigpageError::SlugTaken),
            other => other?,
        };
        hold_renamed_slug(conn, user_id, &before, key.as_deref(), now)?;
        save_links(conn, user_id, &before.settings.links, &settings.links, now)?;

        let unused = unused_images(&before.settings, settings);
        repo::delete_images(conn, &unused)?;
        let editor = editor_of(
            repo::find_page(conn, user_id)?
                .ok_or_else(|| RigpageError::corrupt("the saved page vanished"))?,
            repo::links_of(conn, user_id)?,
        )?;
        Ok(Saved {
            editor,
            charge,
            credits,
            unused_media: unused.iter().filter_map(|k| MediaKey::parse(k)).collect(),
            previous_slug: before.settings.slug,
        })
    })
}

/// After a rename of a page that has been public, its old slug is held for the owner for
/// [`RENAMED_SLUG_HOLD`] and its address leads to the new one (printed QR codes, shared
/// links); taking an old slug back ends its hold.
fn hold_renamed_slug(
    conn: &mut DbConnection,
    user_id: UserId,
    before: &Editor,
    new_key: Option<&str>,
    now: DateTime<Utc>,
) -> Result<(), DieselError> {
    if let Some(new_key) = new_key {
        repo::release_slug(conn, new_key)?;
    }
    let old_key = before.settings.slug.as_deref().map(slug_key);
    if let Some(old_key) = old_key.filter(|old| before.ever_published && Some(old.as_str()) != new_key) {
        let hold = SlugHold { until: (now + RENAMED_SLUG_HOLD).naive_utc(), redirect_user_id: Some(user_id) };
        repo::hold_slug(conn, &old_key, hold, now.naive_utc())?;
    }
    Ok(())
}

/// Takes the charge from the balance (one ledger line per reason); the balance after. The
/// caller holds the account's lock, so the balance checked here is the one charged.
fn take_credits(
    conn: &mut DbConnection,
    user_id: UserId,
    charge: Charge,
    now: DateTime<Utc>,
) -> Result<i32, RigpageError> {
    if charge.credits() > 0 {
        let balance = ledger::balance(conn, user_id)?;
        if balance < charge.credits() {
            return Err(RigpageError::InsufficientCredits { needed: charge.credits() });
        }
    }
    if charge.publish {
        ledger::apply(conn, user_id, -PUBLISH_COST, &LedgerReason::RigpagePublish, None, now)?;
    }
    if charge.link_batches > 0 {
        ledger::apply(conn, user_id, -charge.link_batches, &LedgerReason::RigpageLinks, None, now)?;
    }
    Ok(ledger::balance(conn, user_id)?)
}

/// Updates the links that were saved before (keeping their ids and click counts), adds
/// the new ones and deletes the ones left out; the order is the list's order.
fn save_links(
    conn: &mut DbConnection,
    user_id: UserId,
    before: &[Link],
    links: &[Link],
    now: DateTime<Utc>,
) -> Result<(), RigpageError> {
    let mut kept = Vec::with_capacity(links.len());
    for (order, link) in links.iter().enumerate() {
        let order = i32::try_from(order).unwrap_or(i32::MAX);
        let existing = link.id.filter(|id| before.iter().any(|b| b.id == Some(*id)) && !kept.contains(id));
        let fields = LinkChangeset {
            label: &link.label,
            url: &link.url,
            section: link.section.as_deref(),
            image_url: link.image_url.as_deref(),
            display_order: order,
            enabled: link.enabled,
        };
        let id = match existing {
            Some(id) => {
                repo::update_link(conn, user_id, id, &fields)?;
                if before.iter().any(|b| b.id == Some(id) && b.url != link.url) {
                    repo::reset_link_health(conn, id)?;
                }
                id
            }
            None => repo::insert_link(
                conn,
                &LinkInsertForm { user_id, link: fields, created_at: now.naive_utc() },
            )?,
        };
        kept.push(id);
    }
    repo::delete_links_except(conn, user_id, &kept)?;
    Ok(())
}

/// The media keys of images `before` showed and `after` does not.
fn unused_images(before: &Settings, after: &Settings) -> Vec<String> {
    let now_shown = after.media_keys();
    let mut unused: Vec<String> =
        before.media_keys().into_iter().filter(|k| !now_shown.contains(k)).collect();
    unused.sort();
    unused.dedup();
    unused
}

pub(crate) fn editor_of(row: RigpageRow, links: Vec<LinkRow>) -> Result<Editor, RigpageError> {
    let socials: SocialLinks = serde_json::from_str(&row.social_links_json).map_err(RigpageError::corrupt)?;
    let sections: Vec<String> = serde_json::from_str(&row.sections_json).map_err(RigpageError::corrupt)?;
    let parse =
        |what: &str, text: &str| RigpageError::corrupt(format!("page {}: {what} {text:?}", row.user_id));
    let settings = Settings {
        enabled: row.enabled,
        show_on_community: row.show_on_community,
        slug: row.slug,
        setup_id: row.setup_id,
        avatar: row.avatar_url,
        tagline: row.tagline,
        bio: row.bio,
        socials,
        theme: row.theme.parse().map_err(|_| parse("theme", &row.theme))?,
        highlight_color: row.highlight_color,
        font: row.font_style.parse().unwrap_or_default(),
        button: row.button_style.parse().unwrap_or_default(),
        corner_radius: row.corner_radius,
        background: row.background_url,
        overlay: row.background_overlay,
        blur: row.background_blur,
        opacity: row.background_opacity,
        show_setup_in_background: row.show_setup_in_background,
        show_gear: row.show_gear,
        sections,
        links: links
            .iter()
            .map(|l| Link {
                id: Some(l.id),
                label: l.label.clone(),
                url: l.url.clone(),
                section: l.section.clone(),
                image_url: l.image_url.clone(),
                enabled: l.enabled,
            })
            .collect(),
    };
    Ok(Editor {
        settings,
        saved: true,
        ever_published: row.ever_published,
        paid_link_batches: row.paid_link_batches,
        dead_links: links.iter().filter(|l| l.health == LinkHealth::Dead).map(|l| l.id).collect(),
    })
}

/// What the community crate shows beside a user's posts.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Badge {
    pub enabled: bool,
    pub slug: Option<String>,
    pub show_on_community: bool,
}

/// The badges of several users (one query); users without a page are left out.
pub fn badges(
    conn: &mut DbConnection,
    user_ids: &[UserId],
) -> Result<std::collections::HashMap<UserId, Badge>, RigpageError> {
    Ok(repo::find_pages(conn, user_ids)?
        .into_iter()
        .map(|row| {
            let badge =
                Badge { enabled: row.enabled, slug: row.slug, show_on_community: row.show_on_community };
            (row.user_id, badge)
        })
        .collect())
}

/// A user's RigPage badge (`enabled`, `slug`, `showOnCommunity`); all off without a page.
pub fn badge(conn: &mut DbConnection, user_id: UserId) -> Result<Badge, RigpageError> {
    Ok(badges(conn, &[user_id])?.remove(&user_id).unwrap_or_default())
}
