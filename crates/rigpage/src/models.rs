//! Rows of the tables the rigpage crate owns.

use chrono::{NaiveDate, NaiveDateTime};
use diesel::prelude::*;
use serde::{Deserialize, Serialize};
use setupiq_core::{AnalysisId, LinkId, UserId};
use setupiq_db::schema::{rigpage_images, rigpage_links, rigpages};

setupiq_db::text_enum! {
    /// Where an image is shown, which decides the size it is stored at.
    #[derive(Serialize, Deserialize, utoipa::ToSchema)]
    #[serde(rename_all = "lowercase")]
    pub enum ImageKind {
        Avatar = "avatar",
        Background = "background",
        Link = "link",
    }
}

setupiq_db::text_enum! {
    /// What the daily check last saw of a link (`rigpage_links.health`).
    #[derive(Serialize, Deserialize, utoipa::ToSchema)]
    #[serde(rename_all = "lowercase")]
    pub enum LinkHealth {
        /// Not checked yet, or its address changed since.
        Unchecked = "unchecked",
        Healthy = "healthy",
        /// Failed twice in a row.
        Dead = "dead",
        /// The check could not tell (a bot wall, or one failure so far).
        Unknown = "unknown",
    }
}

#[derive(Debug, Insertable, AsChangeset)]
#[diesel(table_name = rigpages, treat_none_as_null = true)]
pub(crate) struct RigpageForm<'a> {
    pub user_id: UserId,
    pub enabled: bool,
    pub show_on_community: bool,
    pub slug: Option<&'a str>,
    pub slug_key: Option<&'a str>,
    pub setup_id: Option<AnalysisId>,
    pub avatar_url: Option<&'a str>,
    pub tagline: Option<&'a str>,
    pub bio: Option<&'a str>,
    pub social_links_json: &'a str,
    pub theme: &'a str,
    pub highlight_color: &'a str,
    pub font_style: &'a str,
    pub button_style: &'a str,
    pub corner_radius: i32,
    pub background_url: Option<&'a str>,
    pub background_overlay: &'a str,
    pub background_blur: i32,
    pub background_opacity: i32,
    pub show_setup_in_background: bool,
    pub show_gear: bool,
    pub sections_json: &'a str,
    pub ever_published: bool,
    pub paid_link_batches: i32,
    pub updated_at: NaiveDateTime,
}

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = rigpages)]
pub(crate) struct RigpageRow {
    pub user_id: UserId,
    pub enabled: bool,
    pub show_on_community: bool,
    pub slug: Option<String>,
    pub setup_id: Option<AnalysisId>,
    pub avatar_url: Option<String>,
    pub tagline: Option<String>,
    pub bio: Option<String>,
    pub social_links_json: String,
    pub theme: String,
    pub highlight_color: String,
    pub font_style: String,
    pub button_style: String,
    pub corner_radius: i32,
    pub background_url: Option<String>,
    pub background_overlay: String,
    pub background_blur: i32,
    pub background_opacity: i32,
    pub show_setup_in_background: bool,
    pub show_gear: bool,
    pub sections_json: String,
    pub ever_published: bool,
    pub paid_link_batches: i32,
}

#[derive(Debug, Insertable)]
#[diesel(table_name = rigpage_links)]
pub(crate) struct LinkInsertForm<'a> {
    pub user_id: UserId,
    #[diesel(embed)]
    pub link: LinkChangeset<'a>,
    pub created_at: NaiveDateTime,
}

/// What the editor sets on a link (also the most of a new one).
#[derive(Debug, Insertable, AsChangeset)]
#[diesel(table_name = rigpage_links, treat_none_as_null = true)]
pub(crate) struct LinkChangeset<'a> {
    pub label: &'a str,
    pub url: &'a str,
    pub section: Option<&'a str>,
    pub image_url: Option<&'a str>,
    pub display_order: i32,
    pub enabled: bool,
}

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = rigpage_links)]
pub(crate) struct LinkRow {
    pub id: LinkId,
    pub label: String,
    pub url: String,
    pub section: Option<String>,
    pub image_url: Option<String>,
    pub enabled: bool,
    pub health: LinkHealth,
}

#[derive(Debug, Insertable)]
#[diesel(table_name = rigpage_images)]
pub(crate) struct ImageInsertForm<'a> {
    pub media_key: &'a str,
    pub user_id: UserId,
    pub kind: ImageKind,
    pub created_at: NaiveDateTime,
}

/// A day's count (views of the page, or clicks of one link).
#[derive(Debug, Clone, Copy, Queryable)]
pub(crate) struct DayCount {
    pub day: NaiveDate,
    pub count: i32,
}
