//! The text rubric: a description of a setup in, the six category scores out — by rules over
//! a gear lexicon, no model. Same text, same result.
//!
//! 1. [`tokens`]: lower-case words, numbers and clause breaks (`27"` -> `27 inch`).
//! 2. [`mentions`]: the [`lexicon`]'s phrases in the text, each qualified by its neighbours:
//!    negation ("no RGB", "without cable management", "never cleaned", "cable management:
//!    none"), intensity ("very", "a bit") and judgements ("terrible lighting").
//! 3. Reads: [`monitor`] puts the screen facts together ("two 27-inch 165 Hz monitors on
//!    arms"); every other category adds up the points of its phrases ([`rubric`]). A chair
//!    the text never mentions is unseen (no score, left out of the overall).
//! 4. Scores: the learned [`reading`] weighs every category's read together, as people score
//!    a whole desk (a described buried desk is no 5 for its lighting); a category the text is
//!    silent on is judged from the rest and says so.
//! 5. [`cables`]: the cable inventory; then the setup's kind and a short summary.
//!
//! Rules rather than text similarity: in a trial, plain similarity to reference descriptions
//! ranked a messy description above a tidy one; negation is exactly what it misses. How the
//! scores are made is written up for users in `docs/scoring.md` ("Descriptions").

mod cables;
mod lexicon;
mod mentions;
mod monitor;
mod reading;
mod rubric;
mod seen;
mod tokens;

use self::lexicon::Role;
use self::mentions::Mention;
use self::monitor::Monitors;
pub use self::reading::Evidence;
use self::rubric::Read;
use crate::rating::Refusal;
use crate::result::{Assessment, Category, CategoryScore, Points, Source, overall_score};

/// Thresholds of the setup's kind (see [`setup_kind`]).
const SHOWPIECE_SCORE: Points = Points::whole(8);
const STRONG_SCORE: Points = Points::whole(7);
const NEGLECTED_SCORE: Points = Points::whole(3);
/// More screens than this make a "command center".
const MANY_SCREENS: u8 = 3;

/// Rates a described setup; refuses a text that names no desk or gaming gear at all.
pub fn assess(description: &str) -> Result<Assessment, Refusal> {
    let tokens = tokens::tokenise(description);
    let mentions = mentions::find(&tokens, description);
    if !mentions.iter().any(|m| m.cue.gear) {
        return Err(Refusal::NotASetupDescription);
    }
    let monitors = Monitors::read(&tokens, &mentions);
    let reads = read_categories(&monitors, &mentions);
    let evidence = Evidence::of(&reads);
    let category_ratings: Vec<CategoryScore> = reads
        .into_iter()
        .map(|(category, read)| {
            let score = reading::score(category, &evidence, read == Read::Silent);
            rubric::rating(category, read, score)
        })
        .collect();
    let score = |category: Category| {
        category_ratings
            .iter()
            .find(|r| r.category == category)
            .and_then(|r| r.score)
            .unwrap_or_else(|| rubric::to_score(rubric::BASE))
    };
    let cable_inventory =
        cables::inventory(&tokens, description, &mentions, score(Category::CableManagement));
    let kind = setup_kind(&monitors, &mentions, score);
    let summary = summary(kind, &category_ratings);
    let seen = seen::read(&monitors, &mentions, &cable_inventory);
    Ok(Assessment {
        overall_score: overall_score(&category_ratings),
        summary,
        category: kind.to_owned(),
        category_ratings,
        cable_inventory,
        seen: Some(seen),
        source: Some(Source::Description),
    })
}

/// What the rules read about each category, in [`Category::ALL`]'s order.
fn read_categories(monitors: &Monitors, mentions: &[Mention]) -> Vec<(Category, Read)> {
    Category::ALL
        .iter()
        .map(|&category| match category {
            Category::MonitorSetup => (category, monitors.category_read()),
            other => (category, rubric::read(other, mentions)),
        })
        .collect()
}

/// What the rules read in `description` (`None` where it would be refused), as the learned
/// reading takes it: for fitting the reading (the `descriptions` example).
#[cfg(feature = "internals")]
pub fn evidence(description: &str) -> Option<Evidence> {
    let tokens = tokens::tokenise(description);
    let mentions = mentions::find(&tokens, description);
    mentions.iter().any(|m| m.cue.gear).then(|| {
        let monitors = Monitors::read(&tokens, &mentions);
        Evidence::of(&read_categories(&monitors, &mentions))
    })
}

/// What kind of setup the description reads as, from its strongest trait.
fn setup_kind(monitors: &Monitors, mentions: &[Mention], score: impl Fn(Category) -> Points) -> &'static str {
    let says = |role: Role| mentions.iter().any(|m| m.cue.role == role && !m.is_negated());
    if monitors.count() >= MANY_SCREENS {
        "Multi-Monitor Command Center"
    } else if score(Category::RgbLighting) >= SHOWPIECE_SCORE {
        "RGB Gaming Battlestation"
    } else if says(Role::Plants) && score(Category::AestheticVibe) >= STRONG_SCORE {
        "Cozy Plant-Filled Setup"
    } else if score(Category::DeskCleanliness) >= SHOWPIECE_SCORE {
        "Minimal Workspace"
    } else if score(Category::DeskCleanliness) <= NEGLECTED_SCORE {
        "Work-in-Progress Setup"
    } else if monitors.laptop_only() {
        "Laptop Workstation"
    } else if says(Role::Gaming) {
        "Gaming Setup"
    } else {
        "Desk Setup"
    }
}

/// Two or three sentences: the kind, the strongest and weakest categories the description
/// speaks about, and the ones it is silent on.
fn summary(kind: &str, ratings: &[CategoryScore]) -> String {
    let silent: Vec<&CategoryScore> = ratings.iter().filter(|r| is_silent(r) && !r.is_unseen()).collect();
    let unseen: Vec<&CategoryScore> = ratings.iter().filter(|r| r.is_unseen()).collect();
    let mut described: Vec<(Points, Category)> =
        ratings.iter().filter(|r| !is_silent(r)).filter_map(|r| Some((r.score?, r.category))).collect();
    described.sort();
    let described: Vec<Described> =
        described.into_iter().map(|(score, category)| Described { score, category }).collect();
    let mut text = format!("From your description, this reads as {} {kind}.", crate::words::article(kind));
    match (described.first(), described.last()) {
        (Some(weakest), Some(strongest)) if weakest.score >= STRONG_SCORE => text.push_str(&format!(
            " Everything you describe scores {}/10 or more, led by {} ({}/10).",
            weakest.score, strongest.category, strongest.score
        )),
        (Some(weakest), Some(strongest)) if weakest.score < strongest.score => text.push_str(&format!(
            " Its strongest side is {} ({}/10); {} needs the most work ({}/10).",
            strongest.category, strongest.score, weakest.category, weakest.score
        )),
        (Some(only), Some(_)) => {
            let names: Vec<&str> = described.iter().map(|r| r.category.name()).collect();
            text.push_str(&format!(" What you describe ({}) scores {}/10.", names.join(", "), only.score));
        }
        _ => {}
    }
    if !silent.is_empty() {
        let names: Vec<&str> = silent.iter().map(|r| r.category.name()).collect();
        text.push_str(&format!(
            " It doesn't mention {}, so {} judged from the rest of it.",
            names.join(", "),
            if names.len() == 1 { "that is" } else { "those are" }
        ));
    }
    if !unseen.is_empty() {
        let names: Vec<&str> = unseen.iter().map(|r| r.category.name()).collect();
        text.push_str(&format!(
            " {} can't be judged from it and {} left out of the score.",
            names.join(" and "),
            if names.len() == 1 { "is" } else { "are" }
        ));
    }
    text
}

/// A category the description speaks about, and its score.
struct Described {
    score: Points,
    category: Category,
}

/// Whether the rating is the "doesn't mention" default.
fn is_silent(rating: &CategoryScore) -> bool {
    rating.comment.starts_with("The description doesn't")
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;

    fn rated(description: &str) -> Assessment {
        let assessment = assess(description).unwrap();
        assessment.validate().unwrap();
        assessment
    }

    fn comment(assessment: &Assessment, category: Category) -> &str {
        &assessment.category_ratings.iter().find(|r| r.category == category).unwrap().comment
    }

    #[test]
    fn the_monitor_comment_says_what_was_understood() {
        let result = rated("A 27\" 1440p 165Hz IPS monitor on an arm.");
        assert_eq!(
            comment(&result, Category::MonitorSetup),
            "You describe a 27-inch 1440p 165 Hz IPS monitor on an arm. That is a strong point of this setup."
        );
        let dual = rated("dual 27-inch 165 Hz monitors on arms");
        assert!(comment(&dual, Category::MonitorSetup).contains("two 27-inch 165 Hz monitors on arms"));
        let old = rated("a single old 22-inch 60Hz monitor");
        assert!(comment(&old, Category::MonitorSetup).contains("an old 22-inch 60 Hz monitor"));
    }

    #[test]
    fn comments_quote_the_description() {
        let result = rated("cables everywhere and no cable management");
        assert_eq!(
            comment(&result, Category::CableManagement),
            "You mention \"cables everywhere\" and \"no cable management\". That is what holds this score down."
        );
    }

    #[test]
    fn silent_categories_are_judged_from_the_rest_and_say_so() {
        let result = rated("a Herman Miller chair");
        assert!(result.score_of(Category::RgbLighting).is_some());
        assert!(comment(&result, Category::RgbLighting).starts_with(
            "The description doesn't mention lighting or RGB, so this is judged from the rest of it."
        ));
        assert!(
            result.summary.contains("doesn't mention") && result.summary.contains("judged from the rest")
        );
    }

    #[test]
    fn the_cable_inventory_lists_named_cables_and_where_they_run() {
        let result =
            rated("Power cables hang under the desk, the HDMI cable is sleeved. Mechanical keyboard.");
        let inventory = &result.cable_inventory;
        assert_eq!(inventory.total_count, 2, "{inventory:?}");
        assert_eq!(inventory.cables[0].location, "under the desk");
        assert_eq!(inventory.cables[1].location, "as described");
        assert_eq!(rated("a monitor and a keyboard").cable_inventory, crate::result::CableInventory::none());
        assert_eq!(rated("no cables visible, just a monitor").cable_inventory.total_count, 0);
    }

    #[test]
    fn the_kind_follows_the_strongest_trait() {
        assert_eq!(
            rated("RGB strips, Nanoleaf panels and an RGB keyboard").category,
            "RGB Gaming Battlestation"
        );
        assert_eq!(rated("three monitors on a desk").category, "Multi-Monitor Command Center");
        assert_eq!(rated("a spotless, tidy, minimal desk").category, "Minimal Workspace");
        assert_eq!(rated("a messy desk covered in trash").category, "Work-in-Progress Setup");
    }
}
