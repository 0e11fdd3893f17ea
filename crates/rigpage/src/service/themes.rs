//! The looks a page can take (spec §3 "Enumerations" and "Theme presets"): the 13 themes
//! with the values the editor applies on choosing one, the fonts and the button styles.

use serde::{Deserialize, Serialize};

setupiq_db::text_enum! {
    /// A page's theme: its colours, and the preset the editor applies on choosing it.
    #[derive(Default, Serialize, Deserialize, utoipa::ToSchema)]
    pub enum Theme {
        #[default]
        #[serde(rename = "dark_neon")]
        DarkNeon = "dark_neon",
        #[serde(rename = "minimal_white")]
        MinimalWhite = "minimal_white",
        #[serde(rename = "vaporwave")]
        Vaporwave = "vaporwave",
        #[serde(rename = "rgb_glow")]
        RgbGlow = "rgb_glow",
        #[serde(rename = "creator_brown")]
        CreatorBrown = "creator_brown",
        #[serde(rename = "matrix")]
        Matrix = "matrix",
        #[serde(rename = "sunset")]
        Sunset = "sunset",
        #[serde(rename = "ocean")]
        Ocean = "ocean",
        #[serde(rename = "midnight")]
        Midnight = "midnight",
        #[serde(rename = "forest")]
        Forest = "forest",
        #[serde(rename = "neon_pink")]
        NeonPink = "neon_pink",
        #[serde(rename = "arctic")]
        Arctic = "arctic",
        #[serde(rename = "retro_arcade")]
        RetroArcade = "retro_arcade",
    }
}

setupiq_db::text_enum! {
    /// The typeface of a page; `gaming` is Orbitron, served by us (no font CDN).
    #[derive(Default, Serialize, Deserialize, utoipa::ToSchema)]
    pub enum FontStyle {
        #[default]
        #[serde(rename = "sans-serif")]
        SansSerif = "sans-serif",
        #[serde(rename = "serif")]
        Serif = "serif",
        #[serde(rename = "mono")]
        Mono = "mono",
        #[serde(rename = "gaming")]
        Gaming = "gaming",
    }
}

setupiq_db::text_enum! {
    /// How the link buttons are drawn. The editor offers the first four; the other four
    /// fix the corner shape whatever the radius says.
    #[derive(Default, Serialize, Deserialize, utoipa::ToSchema)]
    #[serde(rename_all = "lowercase")]
    pub enum ButtonStyle {
        #[default]
        Solid = "solid",
        Outline = "outline",
        Soft = "soft",
        Glass = "glass",
        Rounded = "rounded",
        Pill = "pill",
        Sharp = "sharp",
        Gradient = "gradient",
    }
}

/// What choosing a theme applies in the editor (spec §3 "Theme presets").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Preset {
    pub highlight: &'static str,
    pub button: ButtonStyle,
    pub radius: i32,
    pub font: FontStyle,
    pub overlay: &'static str,
}

impl Theme {
    pub const ALL: [Theme; 13] = [
        Theme::DarkNeon,
        Theme::MinimalWhite,
        Theme::Vaporwave,
        Theme::RgbGlow,
        Theme::CreatorBrown,
        Theme::Matrix,
        Theme::Sunset,
        Theme::Ocean,
        Theme::Midnight,
        Theme::Forest,
        Theme::NeonPink,
        Theme::Arctic,
        Theme::RetroArcade,
    ];

    /// The name the editor shows.
    pub fn display_name(self) -> &'static str {
        match self {
            Theme::DarkNeon => "Dark Neon",
            Theme::MinimalWhite => "Minimal White",
            Theme::Vaporwave => "Vaporwave",
            Theme::RgbGlow => "RGB Glow",
            Theme::CreatorBrown => "Creator Brown",
            Theme::Matrix => "Matrix",
            Theme::Sunset => "Sunset Vibes",
            Theme::Ocean => "Deep Ocean",
            Theme::Midnight => "Midnight Purple",
            Theme::Forest => "Forest Green",
            Theme::NeonPink => "Neon Pink",
            Theme::Arctic => "Arctic Frost",
            Theme::RetroArcade => "Retro Arcade",
        }
    }

    pub fn preset(self) -> Preset {
        use ButtonStyle::{Outline, Soft, Solid};
        use FontStyle::{Gaming, Mono, SansSerif, Serif};
        let p =
            |highlight, button, radius, font, overlay| Preset { highlight, button, radius, font, overlay };
        match self {
            Theme::DarkNeon => p("#8B5CF6", Outline, 50, Gaming, "#000000"),
            Theme::MinimalWhite => p("#2563EB", Outline, 50, SansSerif, "#FFFFFF"),
            Theme::Vaporwave => p("#FF00C1", Outline, 75, SansSerif, "#000000"),
            Theme::RgbGlow => p("#00F5D4", Solid, 50, Gaming, "#000000"),
            Theme::CreatorBrown => p("#8B6F47", Outline, 50, Serif, "#F5F5DC"),
            Theme::Matrix => p("#00FF41", Outline, 0, Mono, "#000000"),
            Theme::Sunset => p("#FF6B6B", Solid, 50, SansSerif, "#FFF5E6"),
            Theme::Ocean => p("#1E90FF", Soft, 50, SansSerif, "#001F3F"),
            Theme::Midnight => p("#6366F1", Solid, 50, SansSerif, "#1A1625"),
            Theme::Forest => p("#2D5016", Outline, 50, SansSerif, "#F5F5DC"),
            Theme::NeonPink => p("#FF1493", Solid, 0, SansSerif, "#0A0014"),
            Theme::Arctic => p("#87CEEB", Outline, 50, SansSerif, "#FFFFFF"),
            Theme::RetroArcade => p("#FFD700", Solid, 0, SansSerif, "#1A0A0A"),
        }
    }
}
