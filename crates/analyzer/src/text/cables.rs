//! The cable inventory of a description: each cable (or bundle) it names, where it says it
//! runs, and whether it sounds tidy.

use super::lexicon::{self, Role};
use super::mentions::Mention;
use super::tokens::Token;
use crate::result::{Cable, CableInventory, CableType, Category, Points};

/// Where a cable runs when the description doesn't say.
const AS_DESCRIBED: &str = "as described";
/// A place is looked for this many words after a cable ("cables hanging under the desk").
const LOCATION_REACH: usize = 6;
/// From preposition to place, at most this many words ("behind the left monitor").
const PLACE_REACH: usize = 4;
/// A cable the description doesn't call tidy or messy counts as tidy when the Cable
/// Management score is at least this.
const TIDY_SCORE: Points = Points::whole(7);
/// Most cables listed (the schema allows 40; a description rarely names more than a few).
const MAX_LISTED: usize = 12;

const PREPOSITIONS: &[&str] = &[
    "under",
    "underneath",
    "beneath",
    "below",
    "behind",
    "on",
    "along",
    "across",
    "around",
    "through",
    "in",
    "inside",
    "over",
    "near",
    "by",
    "down",
    "from",
];
const PLACES: &[&str] = &[
    "desk", "floor", "monitor", "monitors", "screen", "wall", "tray", "leg", "legs", "pc", "case", "tower",
    "table", "shelf", "ground", "mat", "chair", "cabinet", "drawer", "spine", "channel", "raceway", "box",
    "back", "corner", "side", "window", "bed", "tv", "keyboard", "carpet",
];

/// The cables `mentions` name; `cable_score` is the Cable Management score.
pub(super) fn inventory(
    tokens: &[Token],
    description: &str,
    mentions: &[Mention],
    cable_score: Points,
) -> CableInventory {
    let mut cables: Vec<Cable> = Vec::new();
    for mention in mentions {
        let Role::Cable(cable_type) = mention.cue.role else { continue };
        if mention.is_negated() {
            continue;
        }
        let location = location(tokens, description, mention);
        if cables.iter().any(|c| c.cable_type == cable_type && c.location == location) {
            continue;
        }
        cables.push(Cable {
            cable_type,
            is_aesthetic: is_tidy(mention, cable_score),
            description: format!("{}: you mention \"{}\"", label(cable_type), mention.quote),
            location,
        });
        if cables.len() == MAX_LISTED {
            break;
        }
    }
    if cables.is_empty() { CableInventory::none() } else { CableInventory::of(cables) }
}

/// "everywhere" for a cable mess said to be everywhere; the place after a preposition that
/// follows the cable ("under the desk"); otherwise [`AS_DESCRIBED`].
fn location(tokens: &[Token], description: &str, mention: &Mention) -> String {
    let phrase = &tokens[mention.tokens.clone()];
    if phrase.iter().any(|t| t.text == "everywhere")
        || phrase.windows(2).any(|w| w[0].text == "all" && w[1].text == "over")
    {
        return "everywhere".to_owned();
    }
    let end = (mention.tokens.end + LOCATION_REACH).min(tokens.len());
    for at in mention.tokens.end..end {
        let word = tokens[at].text.as_str();
        if tokens[at].is_break() || lexicon::CLAUSE_WORDS.contains(&word) {
            break;
        }
        if !PREPOSITIONS.contains(&word) {
            continue;
        }
        let place_end = (at + 1 + PLACE_REACH).min(tokens.len());
        let is_place = |p: usize| PLACES.contains(&tokens[p].text.as_str());
        // The place and the place word right after it: "an under-desk tray", not "an under-desk".
        let place =
            (at + 1..place_end).take_while(|&p| !tokens[p].is_break()).find(|&p| is_place(p)).map(|p| {
                if p + 1 < tokens.len() && !tokens[p + 1].is_break() && is_place(p + 1) { p + 1 } else { p }
            });
        if let Some(place) = place
            && let Some(text) = description.get(tokens[at].span.start..tokens[place].span.end)
        {
            return text.split_whitespace().collect::<Vec<_>>().join(" ");
        }
    }
    AS_DESCRIBED.to_owned()
}

/// A cable phrase that says tidy ("sleeved", "hidden") or messy ("tangled") decides; a plain
/// one ("power strip") follows the Cable Management score.
fn is_tidy(mention: &Mention, cable_score: Points) -> bool {
    match mention.points(Category::CableManagement) {
        Some(points) if points > 0.0 => true,
        Some(points) if points < 0.0 => false,
        _ => cable_score >= TIDY_SCORE,
    }
}

fn label(cable_type: CableType) -> &'static str {
    match cable_type {
        CableType::Monitor => "Monitor cable",
        CableType::Keyboard => "Keyboard cable",
        CableType::Mouse => "Mouse cable",
        CableType::Power => "Power cable",
        CableType::Audio => "Audio cable",
        CableType::Headphone => "Headphone cable",
        CableType::Other => "Cables",
    }
}
