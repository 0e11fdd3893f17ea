//! Rows of the catalogue and click tables.

use chrono::{NaiveDate, NaiveDateTime};
use diesel::prelude::*;
use setupiq_core::{AnalysisId, ProductId, UserId};
use setupiq_db::schema::{affiliate_click_days, affiliate_click_visitors, affiliate_clicks, products};

setupiq_db::text_enum! {
    /// A product's price tier (`products.tier`): every category offers some of each.
    #[derive(serde::Serialize, serde::Deserialize, utoipa::ToSchema)]
    #[serde(rename_all = "lowercase")]
    pub enum Tier {
        Budget = "budget",
        Balanced = "balanced",
        Premium = "premium",
    }
}

setupiq_db::text_enum! {
    /// What a product is (`products.kind`): suggestions choose and justify by it.
    pub enum ProductKind {
        CableClips = "cable_clips",
        CableTies = "cable_ties",
        CableSleeve = "cable_sleeve",
        CableBox = "cable_box",
        CableRaceway = "cable_raceway",
        CableTray = "cable_tray",
        CableSpine = "cable_spine",
        CableKit = "cable_kit",
        LedStrip = "led_strip",
        LightBars = "light_bars",
        LightPanels = "light_panels",
        NeonSign = "neon_sign",
        /// A light on top of the monitor that lights the desk.
        ScreenBar = "screen_bar",
        WarmLamp = "warm_lamp",
        DeskOrganiser = "desk_organiser",
        DeskMat = "desk_mat",
        /// A monitor stand with storage under it.
        StorageRiser = "storage_riser",
        DrawerUnit = "drawer_unit",
        HeadphoneHook = "headphone_hook",
        Pegboard = "pegboard",
        MonitorArm = "monitor_arm",
        DualArm = "dual_arm",
        LaptopStand = "laptop_stand",
        Monitor = "monitor",
        GamingChair = "gaming_chair",
        ErgonomicChair = "ergonomic_chair",
        LumbarCushion = "lumbar_cushion",
        Footrest = "footrest",
        PlantSet = "plant_set",
        AmbientLamp = "ambient_lamp",
        DeskShelf = "desk_shelf",
        WallShelf = "wall_shelf",
        WallPanels = "wall_panels",
    }
}

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = products)]
pub(crate) struct ProductRow {
    pub id: ProductId,
    pub name: String,
    pub product_category: String,
    pub tier: Tier,
    pub price_cents: i64,
    pub link: String,
    pub justification: String,
    pub rating_tenths: i32,
    pub kind: Option<ProductKind>,
}

#[derive(Debug, Insertable)]
#[diesel(table_name = affiliate_clicks)]
pub(crate) struct ClickInsertForm<'a> {
    pub product_id: ProductId,
    pub user_id: Option<UserId>,
    pub session_id: &'a str,
    pub suggestion_context: Option<&'a str>,
    pub analysis_id: Option<AnalysisId>,
    pub created_at: NaiveDateTime,
    pub is_bot: bool,
}

#[derive(Debug, Insertable)]
#[diesel(table_name = affiliate_click_days)]
pub(crate) struct ClickDayInsertForm {
    pub day: NaiveDate,
    pub product_id: ProductId,
    pub clicks: i32,
}

setupiq_db::text_enum! {
    /// The product categories of the catalogue (spec §3), by their display names.
    #[derive(serde::Serialize, serde::Deserialize, utoipa::ToSchema)]
    #[schema(as = ProductCategory)]
    pub enum Category {
        #[serde(rename = "Accessories")]
        Accessories = "Accessories",
        #[serde(rename = "Cable Management")]
        CableManagement = "Cable Management",
        #[serde(rename = "Chair")]
        Chair = "Chair",
        #[serde(rename = "Desk")]
        Desk = "Desk",
        #[serde(rename = "Headset")]
        Headset = "Headset",
        #[serde(rename = "Keyboard")]
        Keyboard = "Keyboard",
        #[serde(rename = "Lighting")]
        Lighting = "Lighting",
        #[serde(rename = "Microphone")]
        Microphone = "Microphone",
        #[serde(rename = "Monitor")]
        Monitor = "Monitor",
        #[serde(rename = "Mouse")]
        Mouse = "Mouse",
        #[serde(rename = "Webcam")]
        Webcam = "Webcam",
    }
}

/// The affiliate networks (spec §3) by their display names, stored by a short key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize, utoipa::ToSchema)]
#[schema(as = AffiliateNetwork)]
pub enum Network {
    Amazon,
    #[serde(rename = "B&H Photo")]
    BhPhoto,
    #[serde(rename = "Best Buy")]
    BestBuy,
    #[serde(rename = "Micro Center")]
    MicroCenter,
    Newegg,
    Other,
}

impl Network {
    /// `products.network`.
    pub fn key(self) -> &'static str {
        match self {
            Network::Amazon => "amazon",
            Network::BhPhoto => "bh_photo",
            Network::BestBuy => "best_buy",
            Network::MicroCenter => "micro_center",
            Network::Newegg => "newegg",
            Network::Other => "other",
        }
    }
    /// The network of a `products.network` key; [`Network::Other`] for one it does not know.
    pub fn from_key(key: &str) -> Self {
        match key {
            "amazon" => Network::Amazon,
            "bh_photo" => Network::BhPhoto,
            "best_buy" => Network::BestBuy,
            "micro_center" => Network::MicroCenter,
            "newegg" => Network::Newegg,
            _ => Network::Other,
        }
    }
}

setupiq_db::text_enum! {
    /// A link's health as the last run saw it (`products.link_status`).
    #[derive(serde::Serialize, serde::Deserialize, utoipa::ToSchema)]
    #[serde(rename_all = "lowercase")]
    pub enum Health {
        Healthy = "healthy",
        Dead = "dead",
        Warning = "warning",
        Unknown = "unknown",
    }
}

setupiq_db::text_enum! {
    /// What the last check made of a link, as stored (`products.link_verdict`, the admin's
    /// `link_checks.verdict`): the checker's verdict without its reason.
    #[derive(serde::Serialize, serde::Deserialize, utoipa::ToSchema)]
    #[serde(rename_all = "snake_case")]
    pub enum LinkVerdict {
        Healthy = "healthy",
        Dead = "dead",
        HomePageRedirect = "home_page_redirect",
        TagDropped = "tag_dropped",
        BotCheck = "bot_check",
        Timeout = "timeout",
        Unreachable = "unreachable",
        Error = "error",
        Refused = "refused",
    }
}

/// A product as link health sees it (`service::link_health::ProductLink`).
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = products)]
pub struct ProductLinkRow {
    pub id: ProductId,
    pub name: String,
    pub product_category: String,
    pub network: String,
    pub link: String,
    pub price_cents: i64,
    pub commission_bp: i32,
    pub is_active: bool,
    pub last_verified_at: Option<NaiveDateTime>,
    pub link_status: Option<Health>,
    pub link_verdict: Option<LinkVerdict>,
    pub link_status_code: Option<i32>,
    pub link_final_url: Option<String>,
    pub consecutive_failures: i32,
    pub expected_final_url: Option<String>,
}

#[derive(Debug, Insertable)]
#[diesel(table_name = affiliate_click_visitors)]
pub(crate) struct VisitorInsertForm<'a> {
    pub visitor: &'a str,
    pub category: &'a str,
    pub last_click_at: NaiveDateTime,
}

/// One click of a user on a product link, with the product's name (their data export).
#[derive(Debug, Queryable)]
pub(crate) struct UserClickRow {
    pub created_at: NaiveDateTime,
    pub product: String,
    pub suggestion_context: Option<String>,
    pub analysis_id: Option<AnalysisId>,
}

/// What a check found, for the product's row (`service::link_health::record`).
#[derive(Debug, Clone, Copy)]
pub struct CheckedLink<'a> {
    pub status: Health,
    pub verdict: LinkVerdict,
    pub status_code: Option<i32>,
    pub final_url: Option<&'a str>,
    pub consecutive_failures: i32,
    pub is_active: bool,
    pub checked_at: NaiveDateTime,
}
