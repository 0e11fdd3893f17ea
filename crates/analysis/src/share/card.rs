//! The share card: a 1200x630 PNG (the Open Graph size) of a shared analysis, drawn from an
//! SVG template by resvg with a bundled font (DejaVu Sans Bold, `assets/`, no system fonts),
//! so the card is the same on every machine: the setup photo on the left, the SetupIQ Score
//! with its band, the voice's one-line summary (Roast or Coach) and the six category scores
//! on the right (an unseen one as `-/10` with an empty bar), the product name.

use std::fmt::Write as _;
use std::sync::{Arc, OnceLock};

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use resvg::{tiny_skia, usvg};

use crate::service::SavedAnalysis;
use setupiq_analyzer::result::{Points, percentile_text};
use setupiq_analyzer::voice::Voice;

pub const WIDTH: u32 = 1200;
pub const HEIGHT: u32 = 630;
const FONT: &[u8] = include_bytes!("../../assets/DejaVuSans-Bold.ttf");
const FONT_FAMILY: &str = "DejaVu Sans";

#[derive(Debug, thiserror::Error)]
pub enum CardError {
    #[error("the share card template is invalid: {0}")]
    Template(String),
    #[error("the share card cannot be encoded: {0}")]
    Encode(String),
}

fn options() -> &'static usvg::Options<'static> {
    static OPTIONS: OnceLock<usvg::Options<'static>> = OnceLock::new();
    OPTIONS.get_or_init(|| {
        let mut fonts = usvg::fontdb::Database::new();
        fonts.load_font_data(FONT.to_vec());
        usvg::Options {
            font_family: FONT_FAMILY.to_owned(),
            fontdb: Arc::new(fonts),
            ..usvg::Options::default()
        }
    })
}

/// The card of `analysis` in `voice`, with `photo` (its JPEG, if it has one) and, for a
/// re-rating, `before` (the re-rated analysis's JPEG, while it exists). CPU-bound (tens of
/// milliseconds): call it off the async workers.
pub fn render(
    analysis: &SavedAnalysis,
    voice: Voice,
    photo: Option<&[u8]>,
    before: Option<&[u8]>,
) -> Result<Vec<u8>, CardError> {
    let svg = template(analysis, voice, photo, before);
    let tree = usvg::Tree::from_str(&svg, options()).map_err(|e| CardError::Template(e.to_string()))?;
    let mut pixmap =
        tiny_skia::Pixmap::new(WIDTH, HEIGHT).ok_or_else(|| CardError::Encode("no pixmap".to_owned()))?;
    resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
    pixmap.encode_png().map_err(|e| CardError::Encode(e.to_string()))
}

/// The SVG: every text escaped, the photos inlined as data URLs. A re-rating shows its
/// before and after photos side by side (each half the photo's width, labelled) and its
/// scores as "5.2 → 7.8" with the change's line in the voice.
fn template(analysis: &SavedAnalysis, voice: Voice, photo: Option<&[u8]>, before: Option<&[u8]>) -> String {
    let a = &analysis.report.assessment;
    let progress = analysis.report.progress.as_ref();
    let voiced = match progress {
        Some(p) => Some(match voice {
            Voice::Honest => p.lines.honest.clone(),
            Voice::Roast => p.lines.roast.clone(),
            Voice::Coach => p.lines.coach.clone(),
        }),
        None => analysis.report.voices().get(voice).map(|v| v.summary.clone()),
    };
    let score = a.overall_score;
    let (photo_width, x) = if photo.is_some() { (560, 610) } else { (0, 80) };
    let image = |x: u32, width: u32, jpeg: &[u8]| {
        format!(
            r#"<image x="{x}" y="0" width="{width}" height="{HEIGHT}" preserveAspectRatio="xMidYMid slice" href="data:image/jpeg;base64,{}"/>"#,
            STANDARD.encode(jpeg)
        )
    };
    let label = |x: u32, text: &str| {
        format!(
            r##"<rect x="{}" y="{}" width="120" height="40" rx="8" fill="#0f172a" fill-opacity="0.8"/><text x="{}" y="{}" font-size="22" fill="#f8fafc">{text}</text>"##,
            x + 16,
            HEIGHT - 64,
            x + 28,
            HEIGHT - 36
        )
    };
    let picture = match (photo, before) {
        (Some(after), Some(before)) => {
            let half = photo_width / 2;
            format!(
                "{}{}{}{}",
                image(0, half, before),
                image(half, half, after),
                label(0, "Before"),
                label(half, "After")
            )
        }
        (Some(after), None) => image(0, photo_width, after),
        _ => String::new(),
    };
    let big = match progress {
        Some(p) => format!(
            r##"<text x="{x}" y="180" font-size="84" fill="{colour}">{from:.1} <tspan fill="#94a3b8">→</tspan> {score:.1}</text>"##,
            colour = band_colour(score),
            from = p.previous_overall_score,
        ),
        None => format!(
            r##"<text x="{x}" y="190" font-size="110" fill="{colour}">{score:.1}<tspan font-size="44" fill="#94a3b8">/10</tspan></text>"##,
            colour = band_colour(score),
        ),
    };
    let heading = format!("{} · {}", percentile_text(score), a.category);
    let mut rows = String::new();
    for (i, rating) in (0u32..).zip(&a.category_ratings) {
        let y = 330 + i * 42;
        let _ = write!(
            rows,
            r##"<text x="{x}" y="{y}" font-size="24" fill="#cbd5e1">{name}</text>
<rect x="{bx}" y="{by}" width="{track}" height="14" rx="7" fill="#1e293b"/>
<rect x="{bx}" y="{by}" width="{bar}" height="14" rx="7" fill="{colour}"/>
<text x="{sx}" y="{y}" font-size="24" fill="{text}" text-anchor="end">{score}</text>
"##,
            name = escape(rating.category.name()),
            bx = x + 270,
            by = y - 15,
            // An unseen category has no bar at all, and a muted placeholder: no band.
            track = rating.score.map_or(0, |_| 240),
            // 24 px a point, 12 a half point.
            bar = rating.score.map_or(0, |score| u32::try_from(score.count_halves() * 12).unwrap_or(0)),
            colour = rating.score.map_or(UNSEEN_COLOUR, |score| band_colour(score.value())),
            text = rating.score.map_or(UNSEEN_COLOUR, |_| "#f8fafc"),
            sx = x + 560,
            score = score_text(rating.score),
        );
    }
    format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}">
<defs><linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#0f172a"/><stop offset="1" stop-color="#312e81"/></linearGradient></defs>
<rect width="{WIDTH}" height="{HEIGHT}" fill="url(#bg)"/>
{picture}
<text x="{x}" y="80" font-size="30" fill="#a78bfa">SetupIQ</text>
{big}
<text x="{x}" y="250" font-size="{heading_size}" fill="#f8fafc">{heading}</text>
{line}{rows}<text x="{x}" y="600" font-size="20" fill="#94a3b8">SetupIQ Score · rate your setup at SetupIQ</text>
</svg>"##,
        heading = escape(&heading),
        heading_size = font_size_to_fit(&heading, WIDTH - x - 40, 30),
        line = voiced.map_or_else(String::new, |summary| format!(
            r##"<text x="{x}" y="292" font-size="20" fill="#c4b5fd">{}</text>
"##,
            escape(&shortened(&summary, if photo.is_some() { 46 } else { 85 }))
        )),
    )
}

/// The largest font size up to `max` at which `text` fits `width` pixels in the card's font
/// (its glyphs average under 0.56 em), never below 18: a long setup type ("RGB Gaming
/// Battlestation") is set smaller instead of being cut off at the card's edge.
fn font_size_to_fit(text: &str, width: u32, max: u32) -> u32 {
    let chars = u32::try_from(text.chars().count()).unwrap_or(u32::MAX).max(1);
    (width * 100 / (56 * chars)).clamp(18, max)
}

/// `text` cut at a word to at most `max` characters, with an ellipsis when cut.
fn shortened(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_owned();
    }
    let cut: String = text.chars().take(max - 1).collect();
    let at_word = cut.rfind(' ').map_or(cut.as_str(), |i| &cut[..i]);
    format!("{}…", at_word.trim_end_matches([',', ';', ':', '.']))
}

/// A category score as the card shows it: the number (the bar says out of what), or the
/// placeholder `-/10` when the category is unseen.
fn score_text(score: Option<Points>) -> String {
    score.map_or_else(|| "-/10".to_owned(), |score| score.to_string())
}

/// An unseen category's placeholder: muted, no band colour.
const UNSEEN_COLOUR: &str = "#94a3b8";

/// Green from 8, amber from 5, red below.
fn band_colour(score: f64) -> &'static str {
    match score {
        s if s >= 8.0 => "#4ade80",
        s if s >= 5.0 => "#fbbf24",
        _ => "#f87171",
    }
}

/// Text and attribute values escaped as the share page escapes them (maud's escaper).
fn escape(text: &str) -> String {
    maud::html! { (text) }.into_string()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::service::{AnalysisStatus, InputType, Report};
    use setupiq_analyzer::AnalyzerName;
    use setupiq_analyzer::result::Category;
    use setupiq_core::{AnalysisId, UserId};

    fn saved(assessment: setupiq_analyzer::result::Assessment) -> SavedAnalysis {
        SavedAnalysis {
            id: AnalysisId(1),
            user_id: UserId(1),
            input_type: InputType::Text,
            input_text: None,
            image: None,
            thumbnail: None,
            report: Report::new(assessment, Vec::new(), AnalyzerName::Local),
            status: AnalysisStatus::Completed,
            created_at: chrono::Utc::now(),
            share_token: None,
            previous_analysis_id: None,
        }
    }

    #[test]
    fn an_unseen_category_is_the_placeholder_without_a_bar() {
        let assessment =
            setupiq_analyzer::text::assess("Two 27 inch monitors on arms, RGB strips, cables in a tray.")
                .unwrap();
        assert_eq!(assessment.score_of(Category::ChairComfort), None, "no chair described");
        let analysis = saved(assessment);
        let svg = template(&analysis, Voice::Honest, None, None);
        let chair = svg.split("Chair &amp; Comfort</text>").nth(1).unwrap();
        let row: String = chair.lines().take(4).collect();
        assert!(row.contains(r#"width="0" height="14""#), "{row}");
        assert!(row.contains(">-/10</text>"), "{row}");
        assert!(!svg.contains("null"), "{svg}");
        render(&analysis, Voice::Coach, None, None).unwrap();
    }

    #[test]
    fn a_half_point_is_drawn_as_its_number_with_a_bar_to_match() {
        let mut assessment =
            setupiq_analyzer::text::assess("Two 27 inch monitors on arms, RGB strips, cables in a tray.")
                .unwrap();
        for rating in &mut assessment.category_ratings {
            rating.score = match rating.category {
                Category::CableManagement => Some(Points::halves(13)),
                Category::RgbLighting => Some(Points::whole(7)),
                _ => rating.score,
            };
        }
        let analysis = saved(assessment);
        let svg = template(&analysis, Voice::Honest, None, None);
        let row = |name: &str| -> String { svg.split(name).nth(1).unwrap().lines().take(4).collect() };
        let cables = row("Cable Management</text>");
        assert!(cables.contains(">6.5</text>"), "{cables}");
        assert!(cables.contains(r#"width="156" height="14""#), "6.5 of 240 px: {cables}");
        let lights = row("RGB/Lighting</text>");
        assert!(lights.contains(">7</text>") && !lights.contains("7.0"), "{lights}");
        assert!(lights.contains(r#"width="168" height="14""#), "{lights}");
        render(&analysis, Voice::Coach, None, None).unwrap();
    }

    /// The rightmost edge of any text drawn, in pixels.
    fn text_right_edge(svg: &str) -> f32 {
        let tree = usvg::Tree::from_str(svg, options()).unwrap();
        fn walk(group: &usvg::Group, right: &mut f32) {
            for node in group.children() {
                match node {
                    usvg::Node::Group(inner) => walk(inner, right),
                    usvg::Node::Text(text) => *right = right.max(text.abs_bounding_box().right()),
                    _ => {}
                }
            }
        }
        let mut right = 0.0;
        walk(tree.root(), &mut right);
        right
    }

    #[test]
    fn a_long_setup_type_fits_the_card_beside_the_photo() {
        let assessment =
            setupiq_analyzer::text::assess("Two 27 inch monitors on arms, RGB strips, a gaming chair.")
                .unwrap();
        let mut analysis = saved(assessment);
        analysis.report.assessment.category = "RGB Gaming Battlestation".into();
        analysis.report.assessment.overall_score = 3.1;
        // With a photo, which takes the left 560 pixels (its bytes do not matter to the layout).
        let svg = template(&analysis, Voice::Honest, Some(b"jpeg"), None);
        assert!(svg.contains("RGB Gaming Battlestation"), "not cut: {svg}");
        let right = text_right_edge(&svg);
        assert!(right <= WIDTH as f32, "text runs to x = {right} on a {WIDTH} px card");
    }

    #[test]
    fn a_re_rating_shows_both_photos_and_its_scores_before_and_after() {
        let assessment =
            setupiq_analyzer::text::assess("Two 27 inch monitors on arms, RGB strips, a gaming chair.")
                .unwrap();
        let mut previous = saved(assessment.clone());
        previous.report.assessment.overall_score = 5.2;
        let mut analysis = saved(assessment);
        analysis.report.assessment.overall_score = 7.8;
        analysis.report.progress =
            Some(crate::service::Progress::between(&previous, &analysis.report.assessment));
        let svg = template(&analysis, Voice::Honest, Some(b"after"), Some(b"before"));
        assert!(svg.contains("5.2 <tspan fill=\"#94a3b8\">\u{2192}</tspan> 7.8"), "{svg}");
        assert!(svg.contains(">Before</text>") && svg.contains(">After</text>"), "{svg}");
        assert!(svg.contains(&STANDARD.encode(b"before")) && svg.contains(&STANDARD.encode(b"after")));
        assert!(svg.contains("Up 2.6 since last time"), "the change in the voice: {svg}");
        let right = text_right_edge(&template(&analysis, Voice::Roast, Some(b"a"), Some(b"b")));
        assert!(right <= WIDTH as f32, "text runs to x = {right} on a {WIDTH} px card");
    }
}
