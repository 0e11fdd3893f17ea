//! A shared analysis as the public sees it: the page at `/share/{token}`, rendered on the
//! server with its `<title>`, description and Open Graph / Twitter card tags (so a link
//! pasted into Discord, X or iMessage shows a preview), and its card image
//! (`/share/{token}/card.png`, [`card`]). The page is a complete document with its CSS
//! inline and no script; maud escapes every text. `?voice=roast` or `?voice=coach` tells the
//! page and its card in that voice ([`Voice`]); the scores are the same in every voice.

pub mod card;

use maud::{DOCTYPE, Markup, PreEscaped, html};

use crate::service::SavedAnalysis;
use setupiq_analyzer::result::percentile_text;
use setupiq_analyzer::voice::{Voice, Voiced};

const PRODUCT: &str = "SetupIQ";

/// The title a preview shows: "8.4/10 · RGB Gaming Battlestation · SetupIQ", or for a
/// re-rating "5.2 → 7.8 · RGB Gaming Battlestation · SetupIQ".
pub fn title(analysis: &SavedAnalysis) -> String {
    let a = &analysis.report.assessment;
    match &analysis.report.progress {
        Some(progress) => format!(
            "{} · {} · {PRODUCT}",
            change(progress.previous_overall_score, a.overall_score),
            a.category
        ),
        None => format!("{:.1}/10 · {} · {PRODUCT}", a.overall_score, a.category),
    }
}

/// A re-rating's scores: "5.2 → 7.8".
pub fn change(from: f64, to: f64) -> String {
    format!("{from:.1} \u{2192} {to:.1}")
}

/// The overall delta with its sign: "+2.6", "-0.4", "±0.0".
pub fn signed(delta: f64) -> String {
    if delta > 0.0 {
        format!("+{delta:.1}")
    } else if delta < 0.0 {
        format!("\u{2212}{:.1}", -delta)
    } else {
        "\u{b1}0.0".to_owned()
    }
}

/// The re-rating's before photo, while the analysis it re-rated exists.
pub fn before_photo(analysis: &SavedAnalysis) -> Option<setupiq_core::media::MediaKey> {
    let previous = analysis.report.progress.as_ref()?.previous.as_ref()?;
    previous.image_key.as_deref().and_then(setupiq_core::media::MediaKey::parse)
}

/// The shared page in `voice`. `base_url` is the public origin (absolute URLs in the tags),
/// `token` the share token.
pub fn page(analysis: &SavedAnalysis, base_url: &str, token: &str, voice: Voice) -> Markup {
    let a = &analysis.report.assessment;
    let voices = analysis.report.voices();
    let voiced: Option<&Voiced> = voices.get(voice);
    let summary = voiced.map_or(a.summary.as_str(), |v| v.summary.as_str());
    let comment = |rating: &setupiq_analyzer::result::CategoryScore| -> String {
        voiced.and_then(|v| v.comment_on(rating.category)).unwrap_or(&rating.comment).to_owned()
    };
    let query = voice.query();
    let canonical = format!("{base_url}/share/{token}{query}");
    let card = format!("{base_url}/share/{token}/card.png{query}");
    let title = title(analysis);
    let progress = analysis.report.progress.as_ref();
    let description = match progress {
        Some(p) => format!(
            "SetupIQ Score {} ({}) since the last rating. {}",
            change(p.previous_overall_score, a.overall_score),
            signed(p.overall_delta),
            summary
        ),
        None => format!(
            "SetupIQ Score {:.1}/10 ({}). {}",
            a.overall_score,
            percentile_text(a.overall_score),
            summary
        ),
    };
    let change_line = progress.map(|p| match voice {
        Voice::Honest => p.lines.honest.clone(),
        Voice::Roast => p.lines.roast.clone(),
        Voice::Coach => p.lines.coach.clone(),
    });
    let before = before_photo(analysis);
    let head = html! {
        meta name="description" content=(description);
        link rel="canonical" href=(canonical);
        meta property="og:type" content="website";
        meta property="og:site_name" content=(PRODUCT);
        meta property="og:url" content=(canonical);
        meta property="og:title" content=(title);
        meta property="og:description" content=(description);
        meta property="og:image" content=(card);
        meta property="og:image:width" content=(card::WIDTH);
        meta property="og:image:height" content=(card::HEIGHT);
        meta name="twitter:card" content="summary_large_image";
        meta name="twitter:title" content=(title);
        meta name="twitter:description" content=(description);
        meta name="twitter:image" content=(card);
    };
    let main = html! {
        h1 { (a.category) }
        @if let Some(p) = progress {
            p.score.progress {
                span.big { (change(p.previous_overall_score, a.overall_score)) }
                " "
                span class=(if p.overall_delta < 0.0 { "delta down" } else { "delta up" }) { (signed(p.overall_delta)) }
            }
            @if let Some(line) = &change_line { p.change { (line) } }
        } @else {
            p.score { span.big { (format!("{:.1}", a.overall_score)) } "/10 · " (percentile_text(a.overall_score)) }
        }
        @match (&before, &analysis.image) {
            (Some(before), Some(image)) => {
                div.pair {
                    figure {
                        img.photo src=(before.url()) alt="The setup before" width="1920" height="1080";
                        figcaption { "Before · " (format!("{:.1}", progress.map_or(0.0, |p| p.previous_overall_score))) }
                    }
                    figure {
                        img.photo src=(image.url()) alt="The setup now" width="1920" height="1080";
                        figcaption { "After · " (format!("{:.1}", a.overall_score)) }
                    }
                }
            }
            (_, Some(image)) => { img.photo src=(image.url()) alt="The rated setup" width="1920" height="1080"; }
            _ => {}
        }
        p.summary { (summary) }
        h2 { "Category scores" }
        ul.categories {
            @for rating in &a.category_ratings {
                li {
                    span.name { (rating.category.name()) }
                    span.value {
                        @if let Some(delta) = progress.and_then(|p| p.category_deltas.iter().find(|d| d.category == rating.category)).filter(|d| d.from != d.to) {
                            span.from { (delta.from) " \u{2192} " }
                        }
                        @if let Some(score) = rating.score { (score) } @else { "-" } "/10"
                    }
                    p.comment { (comment(rating)) }
                }
            }
        }
        p.cta { a href="/" { "Rate your own setup" } }
    };
    document(&title, head, main)
}

/// What a shared link shows once its owner stopped sharing it, or when it never existed.
pub fn gone_page() -> Markup {
    let title = format!("This shared setup is gone · {PRODUCT}");
    let main = html! {
        h1 { "This shared setup is gone" }
        p.summary {
            "The link was removed by the person who shared it, or it never existed. "
            "Check the address, or ask them for a new link."
        }
        p.cta { a href="/" { "Go Home" } }
    };
    document(&title, html! { meta name="robots" content="noindex"; }, main)
}

/// The page both share pages are: `head` beside the title and the style, `main` under the
/// product's name.
fn document(title: &str, head: Markup, main: Markup) -> Markup {
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (title) }
                (head)
                style { (PreEscaped(STYLE)) }
            }
            body {
                main {
                    p.brand { a href="/" { (PRODUCT) } }
                    (main)
                }
            }
        }
    }
}

const STYLE: &str = "
*{box-sizing:border-box}body{margin:0;background:#0f172a;color:#e2e8f0;font:16px/1.5 system-ui,sans-serif}
main{max-width:760px;margin:0 auto;padding:24px 16px 48px}a{color:#c4b5fd}.brand a{font-weight:700;text-decoration:none}
h1{margin:.5rem 0 0;font-size:1.6rem}.score{font-size:1.2rem;margin:.25rem 0 1rem}.big{font-size:3rem;font-weight:800;color:#f8fafc}
.photo{width:100%;height:auto;border-radius:12px}.categories{list-style:none;padding:0;margin:0}
.categories li{display:grid;grid-template-columns:1fr auto;gap:.25rem 1rem;padding:.75rem 0;border-bottom:1px solid #334155}
.name{font-weight:600}.value{font-weight:700;color:#f8fafc}.comment{grid-column:1/-1;margin:0;color:#cbd5e1}
.progress .big{font-size:2.6rem}.delta{font-weight:800;margin-left:.5rem}.up{color:#4ade80}.down{color:#f87171}
.change{color:#c4b5fd;margin:0 0 1rem}.pair{display:grid;grid-template-columns:1fr 1fr;gap:8px}.pair figure{margin:0}
.pair .photo{aspect-ratio:16/10;object-fit:cover}.pair figcaption{color:#cbd5e1;font-weight:600;margin-top:.25rem}.from{color:#94a3b8;font-weight:600}
.cta a{display:inline-block;margin-top:1.5rem;padding:.75rem 1.25rem;border-radius:999px;background:#7c3aed;color:#fff;font-weight:700;text-decoration:none}
";
