//! Reading a category from the phrases that speak about it, and the words of its comment.
//!
//! A category starts at the middling [`BASE`] and each phrase about it adds its points
//! (see [`super::lexicon`]); the sum is rounded to the nearest half point and kept within
//! 1-10. The same phrase said twice counts once, so repeating "RGB RGB RGB" does not buy a
//! 10. That is the rules' [`Read`]; the score shown is the learned reading's
//! ([`super::reading`]), which weighs every category's read together. A category the
//! description is silent on is judged from the rest, except Chair & Comfort: nothing said
//! about a seat is no chair to judge, so it is unseen (no score, left out of the overall).

use std::collections::BTreeMap;

use super::lexicon::Role;
use super::mentions::Mention;
use crate::result::{Category, CategoryScore, Confidence, Points};

/// Where every category starts, and the score of a category the description doesn't mention.
pub(super) const BASE: f32 = 5.0;
/// Most of the user's phrases quoted in one comment.
const MAX_QUOTES: usize = 6;

/// What the rules read about one category, before the learned reading ([`super::reading`])
/// weighs it with everything else the description says.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Read {
    /// The description speaks about it: the rules' score (the middling [`BASE`] plus its
    /// phrases' points) and what was understood ("You mention \"x\" and \"y\".").
    Said { score: Points, understood: String },
    /// The description is silent on it: it is judged from the rest of what it says.
    Silent,
    /// Nothing to judge (no chair): no score, left out of the overall.
    Unseen { comment: String },
}

/// What the phrases of `mentions` say about `category` (not Monitor Setup: see
/// [`super::monitor::Monitors::category_read`]).
pub(super) fn read(category: Category, mentions: &[Mention]) -> Read {
    if category == Category::ChairComfort && says_there_is_no_seat(mentions) {
        let comment = "You say there is no chair, so comfort can't be judged from the description.";
        return Read::Unseen { comment: comment.to_owned() };
    }
    let counted = strongest_per_cue(category, mentions);
    if counted.is_empty() {
        return not_mentioned(category);
    }
    let points: f32 = counted.iter().map(|(points, _)| points).sum();
    let quotes: Vec<&str> = counted.iter().map(|(_, mention)| mention.quote.as_str()).collect();
    Read::Said {
        score: to_score(BASE + points),
        understood: format!("You mention {}.", quoted_list(&quotes)),
    }
}

/// The category's rating: `score` (the learned reading's) with a comment saying what was
/// understood and what the score means, or why there is none.
pub(super) fn rating(category: Category, read: Read, score: Points) -> CategoryScore {
    let (score, comment, confidence) = match read {
        Read::Said { understood, .. } => {
            (Some(score), format!("{understood} {}", verdict(score)), Confidence::Medium)
        }
        Read::Silent => (
            Some(score),
            format!(
                "The description doesn't {}, so this is judged from the rest of it. {}",
                silent_on(category),
                verdict(score)
            ),
            Confidence::Low,
        ),
        Read::Unseen { comment } => (None, comment, Confidence::Low),
    };
    CategoryScore { category, score, comment, confidence: Some(confidence) }
}

/// Whether the description names a seat only to say there is none ("no chair", "no desk, no
/// chair in view"): there is then no seat to judge, as when it says nothing about one.
fn says_there_is_no_seat(mentions: &[Mention]) -> bool {
    let seats = || mentions.iter().filter(|m| matches!(m.cue.role, Role::Seat(_)));
    seats().next().is_some() && seats().all(Mention::is_negated)
}

/// Each cue's strongest mention about `category`, with its points, in the order the
/// description says them.
fn strongest_per_cue(category: Category, mentions: &[Mention]) -> Vec<(f32, &Mention)> {
    let mut by_cue: BTreeMap<usize, (f32, &Mention)> = BTreeMap::new();
    for mention in mentions {
        let Some(points) = mention.points(category) else { continue };
        let entry = by_cue.entry(mention.cue_index).or_insert((points, mention));
        if points.abs() > entry.0.abs() {
            *entry = (points, mention);
        }
    }
    let mut counted: Vec<_> = by_cue.into_values().collect();
    counted.sort_by_key(|(_, mention)| mention.tokens.start);
    counted
}

/// A category the description is silent on: judged from the rest, except the chair, which
/// can't be judged without one.
pub(super) fn not_mentioned(category: Category) -> Read {
    match category {
        Category::ChairComfort => Read::Unseen {
            comment: format!(
                "The description doesn't {}, so comfort can't be judged from it.",
                silent_on(category)
            ),
        },
        _ => Read::Silent,
    }
}

/// What a description silent on `category` doesn't do.
fn silent_on(category: Category) -> &'static str {
    match category {
        Category::CableManagement => "mention cables or cable management",
        Category::RgbLighting => "mention lighting or RGB",
        Category::DeskCleanliness => "say how clean or cluttered the desk is",
        Category::MonitorSetup => "mention a monitor or screen",
        Category::ChairComfort => "mention a chair or how you sit",
        Category::AestheticVibe => "mention decor, plants, colours or style",
    }
}

/// Points rounded to a 1-10 score in half points (a quarter goes up: 6.25 is 6.5).
pub(super) fn to_score(raw: f32) -> Points {
    if raw.is_finite() { Points::nearest(f64::from(raw)) } else { Points::MIN }
}

/// One sentence on what a score means: from 8 a strong point, from 6 a decent base, from 4
/// about average (a half point reads as the whole below it: 7.5 is a decent base).
pub(super) fn verdict(score: Points) -> &'static str {
    if score >= Points::whole(8) {
        "That is a strong point of this setup."
    } else if score >= Points::whole(6) {
        "That is a decent base."
    } else if score >= Points::whole(4) {
        "That is about average."
    } else {
        "That is what holds this score down."
    }
}

/// `"a"`, `"b" and "c"`.
fn quoted_list(quotes: &[&str]) -> String {
    let mut quoted: Vec<String> = Vec::new();
    for quote in quotes {
        let quote = format!("\"{quote}\"");
        if !quoted.contains(&quote) {
            quoted.push(quote);
        }
    }
    let extra = quoted.len().saturating_sub(MAX_QUOTES);
    quoted.truncate(MAX_QUOTES);
    if extra > 0 {
        quoted.push(format!("{extra} more"));
    }
    match quoted.as_slice() {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_are_rounded_to_half_points_into_range() {
        assert_eq!(to_score(-4.0), Points::whole(1));
        assert_eq!(to_score(5.2), Points::whole(5));
        assert_eq!(to_score(5.4), Points::halves(11));
        assert_eq!(to_score(5.5), Points::halves(11));
        assert_eq!(to_score(5.8), Points::whole(6));
        assert_eq!(to_score(14.0), Points::whole(10));
        assert_eq!(to_score(f32::NAN), Points::whole(1));
    }

    #[test]
    fn a_half_point_reads_as_the_whole_point_below_it() {
        assert_eq!(verdict(Points::whole(8)), "That is a strong point of this setup.");
        assert_eq!(verdict(Points::halves(15)), "That is a decent base.");
        assert_eq!(verdict(Points::whole(6)), "That is a decent base.");
        assert_eq!(verdict(Points::halves(11)), "That is about average.");
        assert_eq!(verdict(Points::halves(7)), "That is what holds this score down.");
    }

    #[test]
    fn lists_read_as_english() {
        assert_eq!(quoted_list(&["a"]), "\"a\"");
        assert_eq!(quoted_list(&["a", "b", "a", "c"]), "\"a\", \"b\" and \"c\"");
        assert_eq!(quoted_list(&["1", "2", "3", "4", "5", "6", "7", "8"]).matches('"').count(), 12);
    }
}
