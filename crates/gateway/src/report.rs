//! The analysis as plain text, for `setupiq analyze`.

use std::fmt::Write;

use setupiq_analyzer::Rating;
use setupiq_analyzer::result::{CableInventoryKind, percentile_text};

/// Score, kind, summary, the six categories with what was seen (`-/10` where nothing could
/// be), and the cable inventory.
pub fn plain_text(analysis: &Rating) -> String {
    let a = &analysis.assessment;
    let mut out = String::new();
    let _ = writeln!(out, "SetupIQ Score: {:.1}/10 ({})", a.overall_score, percentile_text(a.overall_score));
    let _ = writeln!(out, "{} (rated by the {} analyzer)\n", a.category, analysis.analyzer.as_str());
    let _ = writeln!(out, "{}\n", a.summary);
    let mut ratings = a.category_ratings.clone();
    ratings.sort_by_key(|r| r.category);
    for rating in &ratings {
        // An unseen category is the placeholder `-/10`.
        let score = rating.score.map_or_else(|| "-".to_owned(), |score| score.to_string());
        let _ = writeln!(out, "{:<18} {score:>2}/10  {}", rating.category.name(), rating.comment);
    }
    let inventory = &a.cable_inventory;
    if inventory.kind == CableInventoryKind::None {
        let _ = writeln!(out, "\nCables: none spotted");
    } else {
        let _ = writeln!(out, "\nCables ({}):", inventory.total_count);
        for cable in &inventory.cables {
            let tidy = if cable.is_aesthetic { "tidy" } else { "loose" };
            let _ = writeln!(
                out,
                "  - {:?}, {}, {tidy}: {}",
                cable.cable_type, cable.location, cable.description
            );
        }
    }
    out
}
