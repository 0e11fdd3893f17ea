//! Request and response bodies of the RigPage endpoints.

use std::collections::BTreeMap;

use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Deserializer, Serialize};
use setupiq_analysis::service::{InputType, SavedAnalysis};
use setupiq_core::media::MediaKey;
use setupiq_core::{AnalysisId, LinkId};
use utoipa::ToSchema;
use validator::{Validate, ValidationError};

use crate::error::INVALID_URL;
use crate::service::config::{
    self, Charge, Editor, FREE_LINKS, LINKS_PER_BATCH, Link, PUBLISH_COST, Settings, SocialLinks,
};
use crate::service::images::ImageKind;
use crate::service::public::PublicPage;
use crate::service::themes::{ButtonStyle, FontStyle, Theme};
use crate::service::visits::{LinkClicks, STATS_DAYS, Stats};

pub const MAX_URL: usize = 2048;
pub const MAX_LABEL: usize = 100;
pub const MAX_SECTION: usize = 50;
pub const MAX_TAGLINE: usize = 100;
pub const MAX_BIO: usize = 150;
/// A 10 MB image as base64 in a data URL.
pub const MAX_IMAGE_DATA: usize = crate::service::images::MAX_BYTES / 3 * 4 + 64;

fn fail(code: &'static str, message: &'static str) -> Result<(), ValidationError> {
    Err(ValidationError::new(code).with_message(message.into()))
}

/// Whether a visitor may be sent to `url`: `http:` or `https:` with a host, at most 2048
/// characters, no whitespace or control character anywhere (`java\tscript:` included).
pub fn is_safe_url(url: &str) -> bool {
    url.len() <= MAX_URL
        && !url.chars().any(|c| c.is_whitespace() || c.is_control())
        && url::Url::parse(url).is_ok_and(|u| {
            matches!(u.scheme(), "http" | "https") && u.host_str().is_some_and(|h| !h.is_empty())
        })
}

fn url_rules(value: &str) -> Result<(), ValidationError> {
    if is_safe_url(value.trim()) { Ok(()) } else { fail("url", INVALID_URL) }
}

/// A social link: a safe URL, or empty.
fn social_rules(value: &str) -> Result<(), ValidationError> {
    if value.trim().is_empty() { Ok(()) } else { url_rules(value) }
}

fn email_rules(value: &str) -> Result<(), ValidationError> {
    let value = value.trim();
    if value.is_empty() || setupiq_core::validation::is_email(value) {
        Ok(())
    } else {
        fail("email", "Please enter a valid email address.")
    }
}

/// An image: one of our `/media/…` URLs (an upload), or empty.
fn image_rules(value: &str) -> Result<(), ValidationError> {
    let value = value.trim();
    if value.is_empty() || MediaKey::from_url(value).is_some() || is_safe_url(value) {
        Ok(())
    } else {
        fail("url", INVALID_URL)
    }
}

/// Slug rules on the trimmed value; empty means no slug.
fn slug_rules(value: &str) -> Result<(), ValidationError> {
    let value = value.trim();
    if value.is_empty() {
        Ok(())
    } else if value.chars().count() < 3 {
        fail("length", "URL must be at least 3 characters.")
    } else if value.chars().count() > 30 {
        fail("length", "URL must be 30 characters or less.")
    } else if !value.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_') {
        fail("charset", "URL can only contain letters, numbers, hyphens, and underscores.")
    } else {
        Ok(())
    }
}

fn tagline_rules(value: &str) -> Result<(), ValidationError> {
    if value.trim().chars().count() > MAX_TAGLINE {
        fail("length", "Tagline must be 100 characters or less.")
    } else {
        Ok(())
    }
}

fn bio_rules(value: &str) -> Result<(), ValidationError> {
    if value.trim().chars().count() > MAX_BIO {
        fail("length", "Bio must be 150 characters or less.")
    } else {
        Ok(())
    }
}

fn hex_colour(value: &str) -> Result<(), ValidationError> {
    let hex = value.strip_prefix('#').unwrap_or("");
    if hex.len() == 6 && hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        Ok(())
    } else {
        fail("colour", "Please enter a colour as a six-digit hex code, e.g. #8B5CF6.")
    }
}

fn label_rules(value: &str) -> Result<(), ValidationError> {
    let value = value.trim();
    if value.is_empty() {
        fail("length", "Label cannot be empty.")
    } else if value.chars().count() > MAX_LABEL {
        fail("length", "Label must be 100 characters or less.")
    } else {
        Ok(())
    }
}

fn section_rules(value: &str) -> Result<(), ValidationError> {
    if value.trim().chars().count() > MAX_SECTION {
        fail("length", "Section names must be 50 characters or less.")
    } else {
        Ok(())
    }
}

/// A section's name as the document states it ([`section_rules`]: at most 50 characters once
/// trimmed); the request carries plain strings.
pub struct SectionName;

impl utoipa::PartialSchema for SectionName {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        utoipa::openapi::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::String)
            .max_length(Some(MAX_SECTION))
            .pattern(Some("^[^\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F]*$"))
            .into()
    }
}

impl ToSchema for SectionName {}

fn sections_rules(values: &[String]) -> Result<(), ValidationError> {
    if values.len() > config::MAX_SECTIONS {
        return fail("length", "A page can have at most 20 sections.");
    }
    values.iter().try_for_each(|s| section_rules(s))
}

fn default_highlight() -> String {
    Settings::default().highlight_color
}
fn default_overlay() -> String {
    Settings::default().overlay
}
fn default_radius() -> i32 {
    Settings::default().corner_radius
}
fn default_blur() -> i32 {
    Settings::default().blur
}
fn default_opacity() -> i32 {
    Settings::default().opacity
}
fn yes() -> bool {
    true
}

/// Social links as the editor sends them: an object, or the same object as a JSON string.
#[derive(Debug, Default, Serialize, Deserialize, Validate, ToSchema)]
pub struct SocialLinksInput {
    #[validate(custom(function = "social_rules"))]
    #[schema(
        max_length = 2048,
        pattern = "^(https?://([A-Za-z0-9-]+\\.)*[A-Za-z][A-Za-z0-9-]*([/?#][!-~]*)?)?$"
    )]
    pub twitch: Option<String>,
    #[validate(custom(function = "social_rules"))]
    #[schema(
        max_length = 2048,
        pattern = "^(https?://([A-Za-z0-9-]+\\.)*[A-Za-z][A-Za-z0-9-]*([/?#][!-~]*)?)?$"
    )]
    pub tiktok: Option<String>,
    #[validate(custom(function = "social_rules"))]
    #[schema(
        max_length = 2048,
        pattern = "^(https?://([A-Za-z0-9-]+\\.)*[A-Za-z][A-Za-z0-9-]*([/?#][!-~]*)?)?$"
    )]
    pub youtube: Option<String>,
    #[validate(custom(function = "social_rules"))]
    #[schema(
        max_length = 2048,
        pattern = "^(https?://([A-Za-z0-9-]+\\.)*[A-Za-z][A-Za-z0-9-]*([/?#][!-~]*)?)?$"
    )]
    pub discord: Option<String>,
    #[validate(custom(function = "social_rules"))]
    #[schema(
        max_length = 2048,
        pattern = "^(https?://([A-Za-z0-9-]+\\.)*[A-Za-z][A-Za-z0-9-]*([/?#][!-~]*)?)?$"
    )]
    pub twitter: Option<String>,
    #[validate(custom(function = "social_rules"))]
    #[schema(
        max_length = 2048,
        pattern = "^(https?://([A-Za-z0-9-]+\\.)*[A-Za-z][A-Za-z0-9-]*([/?#][!-~]*)?)?$"
    )]
    pub instagram: Option<String>,
    /// Kept for the creator; never shown on the public page.
    #[validate(custom(function = "email_rules"))]
    #[schema(
        max_length = 254,
        pattern = "^([a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(\\.[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*)?$"
    )]
    pub email: Option<String>,
    #[validate(custom(function = "social_rules"))]
    #[schema(
        max_length = 2048,
        pattern = "^(https?://([A-Za-z0-9-]+\\.)*[A-Za-z][A-Za-z0-9-]*([/?#][!-~]*)?)?$"
    )]
    pub vimeo: Option<String>,
}

fn socials_object_or_json<'de, D: Deserializer<'de>>(d: D) -> Result<SocialLinksInput, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Either {
        Object(SocialLinksInput),
        Json(String),
    }
    match Option::<Either>::deserialize(d)? {
        None => Ok(SocialLinksInput::default()),
        Some(Either::Object(links)) => Ok(links),
        Some(Either::Json(text)) if text.trim().is_empty() => Ok(SocialLinksInput::default()),
        Some(Either::Json(text)) => serde_json::from_str(&text)
            .map_err(|_| serde::de::Error::custom("rigpageSocialLinks must be an object of platform to URL")),
    }
}

/// One link of the page as the editor sends it.
#[derive(Debug, Serialize, Deserialize, Validate, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LinkInput {
    /// The id of a saved link (keeps its click counts); none for a new link.
    pub id: Option<i64>,
    #[validate(custom(function = "label_rules"))]
    #[schema(
        min_length = 1,
        max_length = 100,
        pattern = "^[^\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F]*[^\\s\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F][^\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F]*$"
    )]
    pub label: String,
    /// `http:` or `https:` only.
    #[validate(custom(function = "url_rules"))]
    #[schema(
        min_length = 1,
        max_length = 2048,
        pattern = "^https?://([A-Za-z0-9-]+\\.)*[A-Za-z][A-Za-z0-9-]*([/?#][!-~]*)?$"
    )]
    pub url: String,
    /// One of the page's sections, or none ("Other Links").
    #[validate(custom(function = "section_rules"))]
    #[schema(max_length = 50)]
    pub section: Option<String>,
    /// An uploaded image (`POST /_api/rigpage/images`).
    #[validate(custom(function = "image_rules"))]
    #[schema(
        max_length = 2048,
        pattern = "^(https?://([A-Za-z0-9-]+\\.)*[A-Za-z][A-Za-z0-9-]*([/?#][!-~]*)?|/media/[a-z0-9_-]+/[a-z0-9_-]+\\.(jpg|png|webp))?$"
    )]
    pub image_url: Option<String>,
    /// Links are shown in this order (ties keep the list's order).
    #[serde(default)]
    pub display_order: i32,
    /// A link switched off is kept but not shown.
    #[serde(default = "yes")]
    pub enabled: bool,
}

/// The whole page as it should be saved (every field missing takes the spec's default).
/// Texts are trimmed and an empty text means none. Costs: the first Go Live
/// (`rigpageEnabled` true) 1 credit; links beyond 5, 1 credit per started batch of 10,
/// each batch paid once.
#[derive(Debug, Deserialize, Validate, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RigpageConfigRequest {
    #[serde(default)]
    pub rigpage_enabled: bool,
    #[serde(default)]
    pub show_rigpage_on_community: bool,
    /// The page's address, `/rig/{slug}`: 3-30 letters, digits, `-`, `_`, unique without
    /// regard to case.
    #[validate(custom(function = "slug_rules"))]
    #[schema(max_length = 40, pattern = "^([A-Za-z0-9_-]{3,30})?$")]
    pub rigpage_slug: Option<String>,
    /// One of the user's own photo analyses.
    #[validate(range(min = 1, message = "Please choose one of your setups."))]
    #[schema(minimum = 1)]
    pub rigpage_setup_id: Option<i64>,
    #[validate(custom(function = "image_rules"))]
    #[schema(
        max_length = 2048,
        pattern = "^(https?://([A-Za-z0-9-]+\\.)*[A-Za-z][A-Za-z0-9-]*([/?#][!-~]*)?|/media/[a-z0-9_-]+/[a-z0-9_-]+\\.(jpg|png|webp))?$"
    )]
    pub rigpage_avatar: Option<String>,
    #[validate(custom(function = "tagline_rules"))]
    #[schema(max_length = 100)]
    pub rigpage_tagline: Option<String>,
    #[validate(custom(function = "bio_rules"))]
    #[schema(max_length = 150)]
    pub rigpage_bio: Option<String>,
    /// An object of platform to URL, or that object as a JSON string.
    #[serde(default, deserialize_with = "socials_object_or_json")]
    #[validate(nested)]
    pub rigpage_social_links: SocialLinksInput,
    #[serde(default)]
    pub rigpage_theme: Theme,
    /// `#RRGGBB`.
    #[serde(default = "default_highlight")]
    #[validate(custom(function = "hex_colour"))]
    #[schema(min_length = 7, max_length = 7, pattern = "^#[0-9A-Fa-f]{6}$")]
    pub rigpage_highlight_color: String,
    #[serde(default)]
    pub font_style: FontStyle,
    #[serde(default)]
    pub button_style: ButtonStyle,
    #[serde(default = "default_radius")]
    #[validate(range(min = 0, max = 100, message = "Corner radius must be between 0 and 100."))]
    #[schema(minimum = 0, maximum = 100)]
    pub button_corner_radius: i32,
    #[validate(custom(function = "image_rules"))]
    #[schema(
        max_length = 2048,
        pattern = "^(https?://([A-Za-z0-9-]+\\.)*[A-Za-z][A-Za-z0-9-]*([/?#][!-~]*)?|/media/[a-z0-9_-]+/[a-z0-9_-]+\\.(jpg|png|webp))?$"
    )]
    pub background_image: Option<String>,
    /// `#RRGGBB`, laid over the background image.
    #[serde(default = "default_overlay")]
    #[validate(custom(function = "hex_colour"))]
    #[schema(min_length = 7, max_length = 7, pattern = "^#[0-9A-Fa-f]{6}$")]
    pub background_overlay: String,
    /// Blur of the setup photo in the hero, in pixels.
    #[serde(default = "default_blur")]
    #[validate(range(min = 0, max = 50, message = "Blur must be between 0 and 50."))]
    #[schema(minimum = 0, maximum = 50)]
    pub background_blur: i32,
    /// Opacity of the setup photo in the hero, in percent.
    #[serde(default = "default_opacity")]
    #[validate(range(min = 0, max = 100, message = "Opacity must be between 0 and 100."))]
    #[schema(minimum = 0, maximum = 100)]
    pub background_opacity: i32,
    #[serde(default)]
    pub show_setup_in_background: bool,
    /// Shows the "My gear" block: the showcased setup's gear from its community post.
    #[serde(default)]
    pub show_gear: bool,
    /// Section names in order; empty names are dropped.
    #[serde(default)]
    #[validate(custom(function = "sections_rules"))]
    #[schema(max_items = 20, value_type = Vec<SectionName>)]
    pub sections: Vec<String>,
    /// The links in order (also accepted as `rigpageLinks`).
    #[serde(default, alias = "rigpageLinks")]
    #[validate(length(max = 105, message = "A page can have at most 105 links."), nested)]
    #[schema(max_items = 105)]
    pub links: Vec<LinkInput>,
}

/// A text trimmed, none when empty.
fn text(value: Option<String>) -> Option<String> {
    value.map(|v| v.trim().to_owned()).filter(|v| !v.is_empty())
}

impl RigpageConfigRequest {
    /// The settings this request asks for, normalised.
    pub fn into_settings(self) -> Settings {
        let sections: Vec<String> = {
            let mut names: Vec<String> = Vec::new();
            for name in self.sections.iter().map(|s| s.trim()).filter(|s| !s.is_empty()) {
                if !names.iter().any(|n| n == name) {
                    names.push(name.to_owned());
                }
            }
            names
        };
        let mut links: Vec<LinkInput> = self.links;
        links.sort_by_key(|l| l.display_order);
        let s = self.rigpage_social_links;
        Settings {
            enabled: self.rigpage_enabled,
            show_on_community: self.show_rigpage_on_community,
            slug: text(self.rigpage_slug),
            setup_id: self.rigpage_setup_id.map(AnalysisId),
            avatar: text(self.rigpage_avatar),
            tagline: text(self.rigpage_tagline),
            bio: text(self.rigpage_bio),
            socials: SocialLinks {
                twitch: text(s.twitch),
                tiktok: text(s.tiktok),
                youtube: text(s.youtube),
                discord: text(s.discord),
                twitter: text(s.twitter),
                instagram: text(s.instagram),
                email: text(s.email),
                vimeo: text(s.vimeo),
            },
            theme: self.rigpage_theme,
            highlight_color: self.rigpage_highlight_color.to_ascii_uppercase(),
            font: self.font_style,
            button: self.button_style,
            corner_radius: self.button_corner_radius,
            background: text(self.background_image),
            overlay: self.background_overlay.to_ascii_uppercase(),
            blur: self.background_blur,
            opacity: self.background_opacity,
            show_setup_in_background: self.show_setup_in_background,
            show_gear: self.show_gear,
            sections,
            links: links
                .into_iter()
                .map(|l| Link {
                    id: l.id.map(LinkId),
                    label: l.label.trim().to_owned(),
                    url: l.url.trim().to_owned(),
                    section: text(l.section),
                    image_url: text(l.image_url),
                    enabled: l.enabled,
                })
                .collect(),
        }
    }
}

/// A saved link.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LinkDto {
    pub id: Option<i64>,
    pub label: String,
    pub url: String,
    pub section: Option<String>,
    pub image_url: Option<String>,
    pub display_order: i32,
    pub enabled: bool,
}

/// The page's config, as the editor edits it.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RigpageConfigDto {
    pub rigpage_enabled: bool,
    pub show_rigpage_on_community: bool,
    pub rigpage_slug: Option<String>,
    pub rigpage_setup_id: Option<i64>,
    pub rigpage_avatar: Option<String>,
    pub rigpage_tagline: Option<String>,
    pub rigpage_bio: Option<String>,
    pub rigpage_social_links: SocialLinks,
    pub rigpage_theme: Theme,
    pub rigpage_highlight_color: String,
    #[serde(flatten)]
    pub looks: PageLooks,
    pub sections: Vec<String>,
    pub links: Vec<LinkDto>,
}

/// How the page is drawn beyond its theme and colour (the same names in the editor's
/// config and in the public page).
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PageLooks {
    pub font_style: FontStyle,
    pub button_style: ButtonStyle,
    pub button_corner_radius: i32,
    pub background_image: Option<String>,
    /// `#RRGGBB`, laid over the background image.
    pub background_overlay: String,
    /// Blur of the setup photo in the hero, in pixels.
    pub background_blur: i32,
    /// Opacity of the setup photo in the hero, in percent.
    pub background_opacity: i32,
    pub show_setup_in_background: bool,
    /// The "My gear" block is shown.
    pub show_gear: bool,
}

impl From<&Settings> for PageLooks {
    fn from(s: &Settings) -> Self {
        Self {
            font_style: s.font,
            button_style: s.button,
            button_corner_radius: s.corner_radius,
            background_image: s.background.clone(),
            background_overlay: s.overlay.clone(),
            background_blur: s.blur,
            background_opacity: s.opacity,
            show_setup_in_background: s.show_setup_in_background,
            show_gear: s.show_gear,
        }
    }
}

impl From<Settings> for RigpageConfigDto {
    fn from(s: Settings) -> Self {
        Self {
            looks: PageLooks::from(&s),
            rigpage_enabled: s.enabled,
            show_rigpage_on_community: s.show_on_community,
            rigpage_slug: s.slug,
            rigpage_setup_id: s.setup_id.map(|id| id.0),
            rigpage_avatar: s.avatar,
            rigpage_tagline: s.tagline,
            rigpage_bio: s.bio,
            rigpage_social_links: s.socials,
            rigpage_theme: s.theme,
            rigpage_highlight_color: s.highlight_color,
            sections: s.sections,
            links: s
                .links
                .into_iter()
                .enumerate()
                .map(|(i, l)| LinkDto {
                    id: l.id.map(|id| id.0),
                    label: l.label,
                    url: l.url,
                    section: l.section,
                    image_url: l.image_url,
                    display_order: i32::try_from(i).unwrap_or(i32::MAX),
                    enabled: l.enabled,
                })
                .collect(),
        }
    }
}

/// One of the user's photo analyses, for the setup picker.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SetupOption {
    pub id: i64,
    pub overall_rating: f64,
    pub created_at: DateTime<Utc>,
    pub input_type: InputType,
    /// The photo's URL.
    pub input_data: String,
    pub thumbnail_url: Option<String>,
}

impl From<&SavedAnalysis> for SetupOption {
    fn from(a: &SavedAnalysis) -> Self {
        Self {
            id: a.id.0,
            overall_rating: a.report.assessment.overall_score,
            created_at: a.created_at,
            input_type: a.input_type,
            input_data: a.image.as_ref().map(MediaKey::url).unwrap_or_default(),
            thumbnail_url: a.thumbnail.as_ref().map(MediaKey::url),
        }
    }
}

/// What the editor loads: the config and everything around it.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RigpageEditorResponse {
    #[serde(flatten)]
    pub config: RigpageConfigDto,
    /// Whether the page was ever saved (else the config holds the defaults).
    pub saved: bool,
    /// The first Go Live is paid (going live again is free).
    pub ever_published: bool,
    /// Batches of 10 links beyond the free ones already paid.
    pub paid_link_batches: i32,
    pub free_links: i32,
    pub links_per_batch: i32,
    pub publish_cost: i32,
    /// `{host}/rig/{slug}`, when the page has a slug.
    pub public_url: Option<String>,
    pub username: String,
    pub display_name: String,
    pub profile_picture: Option<String>,
    pub credits: i32,
    /// The best SetupIQ Score of the user's analyses.
    pub best_score: Option<f64>,
    /// The user's photo analyses, newest first (at most 50).
    pub setups: Vec<SetupOption>,
    /// Ids of the saved links the daily check found dead (failed twice in a row); a link
    /// leaves the list when it answers again or its address changes.
    pub dead_link_ids: Vec<i64>,
}

/// What a save cost.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ChargeDto {
    /// Credits taken by this save.
    pub credits: i32,
    /// This save was the first Go Live.
    pub publish: bool,
    /// New batches of links paid by this save.
    pub link_batches: i32,
}

impl From<Charge> for ChargeDto {
    fn from(c: Charge) -> Self {
        Self { credits: c.credits(), publish: c.publish, link_batches: c.link_batches }
    }
}

/// The saved page (as the editor loads it) and what the save cost.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SaveRigpageResponse {
    #[serde(flatten)]
    pub page: RigpageEditorResponse,
    pub charged: ChargeDto,
}

/// The parts of the editor response the service fills in.
pub struct EditorParts<'a> {
    pub editor: Editor,
    pub account: &'a setupiq_auth::Account,
    pub credits: i32,
    pub setups: &'a [SavedAnalysis],
    pub public_base: &'a str,
}

impl From<EditorParts<'_>> for RigpageEditorResponse {
    fn from(p: EditorParts<'_>) -> Self {
        let public_url = p.editor.settings.slug.as_ref().map(|slug| format!("{}/rig/{slug}", p.public_base));
        let photos: Vec<&SavedAnalysis> =
            p.setups.iter().filter(|a| a.input_type == InputType::Image && a.image.is_some()).collect();
        Self {
            dead_link_ids: p.editor.dead_links.into_iter().map(|id| id.0).collect(),
            config: p.editor.settings.into(),
            saved: p.editor.saved,
            ever_published: p.editor.ever_published,
            paid_link_batches: p.editor.paid_link_batches,
            free_links: i32::try_from(FREE_LINKS).unwrap_or(5),
            links_per_batch: i32::try_from(LINKS_PER_BATCH).unwrap_or(10),
            publish_cost: PUBLISH_COST,
            public_url,
            username: p.account.username.clone(),
            display_name: p.account.display_name.clone(),
            profile_picture: p.account.profile_picture.clone(),
            credits: p.credits,
            best_score: p.setups.iter().map(|a| a.report.assessment.overall_score).reduce(f64::max),
            setups: photos.into_iter().map(SetupOption::from).collect(),
        }
    }
}

/// The public page's owner and looks (never an e-mail).
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PublicRigpageUser {
    pub username: String,
    pub display_name: String,
    pub tagline: Option<String>,
    pub bio: Option<String>,
    pub rigpage_avatar: Option<String>,
    pub profile_picture: Option<String>,
    pub theme: Theme,
    pub highlight_color: String,
    #[serde(flatten)]
    pub looks: PageLooks,
    /// Platform -> URL, only the non-empty ones.
    pub social_links: BTreeMap<String, String>,
}

/// The showcased setup.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PublicSetup {
    pub image_url: String,
    pub overall_rating: f64,
    pub created_at: DateTime<Utc>,
}

/// A link as visitors see it.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PublicLink {
    pub id: Option<i64>,
    pub label: String,
    pub url: String,
    pub image_url: Option<String>,
    pub section: Option<String>,
    pub display_order: i32,
}

/// A public RigPage.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PublicRigpageResponse {
    pub user: PublicRigpageUser,
    pub setup: Option<PublicSetup>,
    pub links: Vec<PublicLink>,
}

impl From<PublicPage> for PublicRigpageResponse {
    fn from(page: PublicPage) -> Self {
        let s = page.settings;
        let social_links =
            s.socials.public().into_iter().map(|(name, url)| (name.to_owned(), url.to_owned())).collect();
        Self {
            user: PublicRigpageUser {
                looks: PageLooks::from(&s),
                username: page.username,
                display_name: page.display_name,
                tagline: s.tagline,
                bio: s.bio,
                rigpage_avatar: s.avatar,
                profile_picture: page.profile_picture,
                theme: s.theme,
                highlight_color: s.highlight_color,
                social_links,
            },
            setup: page.setup.map(|setup| PublicSetup {
                image_url: setup.image_url,
                overall_rating: setup.overall_rating,
                created_at: setup.created_at,
            }),
            links: s
                .links
                .into_iter()
                .enumerate()
                .map(|(i, l)| PublicLink {
                    id: l.id.map(|id| id.0),
                    label: l.label,
                    url: l.url,
                    image_url: l.image_url,
                    section: l.section,
                    display_order: i32::try_from(i).unwrap_or(i32::MAX),
                })
                .collect(),
        }
    }
}

/// The draft rendered by the public page's renderer.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct PreviewResponse {
    /// A complete HTML document (show it in a sandboxed frame).
    pub html: String,
}

/// An image for the page.
#[derive(Debug, Deserialize, Validate, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UploadImageRequest {
    pub kind: ImageKind,
    /// `data:image/png|jpeg|webp;base64,…`, at most 5 MB.
    #[validate(length(min = 1, message = "Please upload a valid image (PNG, JPG, or WebP)"))]
    #[schema(min_length = 1)]
    pub image_data: String,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct UploadImageResponse {
    /// Where the stored image is served; put it in the config and save.
    pub url: String,
}

/// One theme with the values the editor applies on choosing it.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ThemeDto {
    pub id: Theme,
    pub name: String,
    pub highlight_color: String,
    pub button_style: ButtonStyle,
    pub button_corner_radius: i32,
    pub font_style: FontStyle,
    pub background_overlay: String,
}

impl From<Theme> for ThemeDto {
    fn from(theme: Theme) -> Self {
        let p = theme.preset();
        Self {
            id: theme,
            name: theme.display_name().into(),
            highlight_color: p.highlight.into(),
            button_style: p.button,
            button_corner_radius: p.radius,
            font_style: p.font,
            background_overlay: p.overlay.into(),
        }
    }
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct ThemesResponse {
    pub themes: Vec<ThemeDto>,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LinkClicksDto {
    pub link_id: i64,
    pub label: String,
    pub clicks: i64,
}

impl From<LinkClicks> for LinkClicksDto {
    fn from(l: LinkClicks) -> Self {
        Self { link_id: l.link_id.0, label: l.label, clicks: l.clicks }
    }
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DayStatsDto {
    pub date: NaiveDate,
    pub views: i64,
    pub clicks: i64,
}

/// The creator's analytics: visitors' views and link clicks (never the owner's own or
/// known bots').
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RigpageStatsResponse {
    /// The period, in days up to today (UTC).
    pub days: i64,
    pub views: i64,
    pub clicks: i64,
    /// Clicks per view, 0-1.
    pub click_through_rate: f64,
    pub top_link: Option<LinkClicksDto>,
    /// Every link, most clicked first.
    pub links: Vec<LinkClicksDto>,
    /// Each day of the period, oldest first.
    pub daily: Vec<DayStatsDto>,
}

impl From<Stats> for RigpageStatsResponse {
    fn from(s: Stats) -> Self {
        Self {
            days: STATS_DAYS,
            views: s.views,
            clicks: s.clicks,
            click_through_rate: s.click_through_rate,
            top_link: s.top_link().cloned().map(LinkClicksDto::from),
            links: s.links.into_iter().map(LinkClicksDto::from).collect(),
            daily: s
                .days
                .into_iter()
                .map(|d| DayStatsDto { date: d.date, views: d.views, clicks: d.clicks })
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::is_safe_url;

    #[test]
    fn only_http_and_https_urls_with_a_host_are_safe() {
        for ok in ["https://twitch.tv/me", "http://example.com/a?b=c#d", "HTTPS://EXAMPLE.COM"] {
            assert!(is_safe_url(ok), "{ok}");
        }
        for bad in [
            "javascript:alert(1)",
            "JavaScript:alert(1)",
            "java\tscript:alert(1)",
            "java\nscript:alert(1)",
            " javascript:alert(1)",
            "data:text/html,<script>alert(1)</script>",
            "vbscript:msgbox(1)",
            "file:///etc/passwd",
            "https://",
            "//example.com",
            "example.com",
            "https://exa mple.com",
        ] {
            assert!(!is_safe_url(bad), "{bad:?}");
        }
        assert!(is_safe_url(&format!("https://e.com/{}", "a".repeat(2048 - 14))));
        assert!(!is_safe_url(&format!("https://e.com/{}", "a".repeat(2048))));
    }
}
