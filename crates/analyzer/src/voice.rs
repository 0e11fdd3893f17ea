//! Voices: the same findings said three ways. **Honest** is the assessment as the analyzer
//! wrote it; **Roast** keeps each finding and adds a good-natured punchline (what people
//! screenshot); **Coach** keeps each finding and turns it into the next step to take.
//!
//! The scores never change with the voice. Every line starts from the category's own
//! finding (the first sentence of its comment: what was seen, or what the description
//! said), so a voice says nothing the analyzer did not find. Which of a band's lines is
//! used depends only on that finding ([`pick`]): the same analysis always reads the same,
//! and different setups read differently. Nothing is called out; any analyzer's result
//! (the embedded one, a provider's) can be voiced. A category without a score (unseen) is
//! never roasted or coached as if it had one, and a description is never spoken of as a
//! photo.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::result::{Assessment, Category, CategoryScore, Points};

/// How a result is told.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Voice {
    Honest,
    Roast,
    Coach,
}

impl Voice {
    /// The voice named in a URL (`?voice=roast`); anything else is honest.
    pub fn from_query(name: Option<&str>) -> Voice {
        match name {
            Some("roast") => Voice::Roast,
            Some("coach") => Voice::Coach,
            _ => Voice::Honest,
        }
    }

    /// The query that names this voice in a URL: "" for Honest, "?voice=roast" for a roast
    /// (read back by [`Voice::from_query`]).
    pub fn query(self) -> &'static str {
        match self {
            Voice::Honest => "",
            Voice::Roast => "?voice=roast",
            Voice::Coach => "?voice=coach",
        }
    }
}

/// One category's comment in a voice.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct VoicedComment {
    pub category: Category,
    pub comment: String,
}

/// A whole result in one voice: a one-line summary and a comment per category.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Voiced {
    /// One short line (it fits on the share card).
    pub summary: String,
    /// In the assessment's order.
    pub comments: Vec<VoicedComment>,
}

impl Voiced {
    /// The comment on `category`, if rated.
    pub fn comment_on(&self, category: Category) -> Option<&str> {
        self.comments.iter().find(|c| c.category == category).map(|c| c.comment.as_str())
    }
}

/// The Roast and Coach voices of a result (Honest is the result itself).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Voices {
    pub roast: Voiced,
    pub coach: Voiced,
}

impl Voices {
    /// `assessment` told as a roast and as coaching.
    pub fn of(assessment: &Assessment) -> Voices {
        Voices { roast: roast(assessment), coach: coach(assessment) }
    }

    /// The result in `voice`, or `None` for Honest (the assessment's own words).
    pub fn get(&self, voice: Voice) -> Option<&Voiced> {
        match voice {
            Voice::Honest => None,
            Voice::Roast => Some(&self.roast),
            Voice::Coach => Some(&self.coach),
        }
    }
}

/// One category's score in two ratings of the same setup, both seen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Moved {
    pub category: Category,
    pub from: Points,
    pub to: Points,
}

impl Moved {
    /// How far it moved, in half points (up is positive).
    fn halves(self) -> i32 {
        self.to.count_halves() - self.from.count_halves()
    }
}

/// One line per voice on what changed since the setup was last rated (a re-rating): Honest
/// says how far the score moved and which category moved most, Roast jokes about it, Coach
/// names the next step. Made when the re-rating is delivered and stored with it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ChangeLines {
    pub honest: String,
    pub roast: String,
    pub coach: String,
}

/// The three lines on a re-rating: the overall score `from` -> `to` (one decimal each),
/// the categories seen both times (`moved`), and the new assessment (for Coach's next step).
pub fn change_lines(from: f64, to: f64, moved: &[Moved], now: &Assessment) -> ChangeLines {
    let delta = crate::result::round1(to - from);
    let scores = format!("{from:.1} \u{2192} {to:.1}");
    let risen = moved
        .iter()
        .copied()
        .filter(|m| m.halves() > 0)
        .max_by_key(|m| (m.halves(), std::cmp::Reverse(m.category)));
    let fallen = moved.iter().copied().filter(|m| m.halves() < 0).min_by_key(|m| (m.halves(), m.category));
    let next = now
        .weakest_first()
        .into_iter()
        .filter(|r| !is_unseen(r))
        .find(|r| r.score.is_some_and(|s| s < Points::whole(8)))
        .map(|r| r.category);
    let next_step = match next {
        Some(category) => format!("Next: {}.", category.name()),
        None => "Next: keep it this way.".to_owned(),
    };
    if delta >= 0.5 {
        let honest = match risen {
            Some(m) => format!(
                "Up {delta:.1} since last time ({scores}); {} improved the most ({} \u{2192} {}).",
                m.category.name(),
                m.from,
                m.to
            ),
            None => format!("Up {delta:.1} since last time ({scores})."),
        };
        let what = risen.map_or("setup", |m| lower_name(m.category));
        let roast = pick(
            &[
                "Who are you, and what did you do with the old {what}?",
                "The {what} glow-up is real; the before photo has left the chat.",
                "Somebody finally read the suggestions.",
            ],
            &scores,
        )
        .replace("{what}", what);
        let coach = match risen {
            Some(m) => format!("{} paid off ({} \u{2192} {}). {next_step}", m.category.name(), m.from, m.to),
            None => format!("Good progress ({scores}). {next_step}"),
        };
        ChangeLines { honest, roast, coach }
    } else if delta <= -0.5 {
        let honest = match fallen {
            Some(m) => format!(
                "Down {:.1} since last time ({scores}); {} slipped the most ({} \u{2192} {}).",
                -delta,
                m.category.name(),
                m.from,
                m.to
            ),
            None => format!("Down {:.1} since last time ({scores}).", -delta),
        };
        let what = fallen.map_or("setup", |m| lower_name(m.category));
        let roast = pick(
            &[
                "Bold strategy, letting the {what} go like that.",
                "The {what} is speedrunning backwards.",
                "We liked the old {what} better, and so did the score.",
            ],
            &scores,
        )
        .replace("{what}", what);
        let coach = match fallen {
            Some(m) => format!("Win back {} first ({} \u{2192} {}).", m.category.name(), m.from, m.to),
            None => format!("A step back ({scores}). {next_step}"),
        };
        ChangeLines { honest, roast, coach }
    } else {
        let honest = format!("About the same as last time ({scores}).");
        let roast = pick(
            &[
                "You moved things around and the score barely noticed.",
                "Same setup, new photo, same verdict.",
            ],
            &scores,
        )
        .to_owned();
        let coach = format!("Holding steady at {to:.1}. {next_step}");
        ChangeLines { honest, roast, coach }
    }
}

fn roast(a: &Assessment) -> Voiced {
    let described = a.is_described();
    let comments = voiced(a, |rating| {
        let lines =
            if is_unseen(rating) { unseen_roast(rating.category, described) } else { roast_lines(rating) };
        pick(lines, &finding(rating)).to_owned()
    });
    let weakest =
        a.weakest_first().into_iter().find(|r| !is_unseen(r)).map_or("setup", |r| lower_name(r.category));
    let lines: &[&str] = match a.overall_score {
        s if s >= 8.0 => &[
            "We came to roast and left taking notes.",
            "Annoyingly good. Go touch grass, you've earned it.",
            "Nothing to roast. We checked twice.",
        ],
        s if s >= 5.0 => &[
            "A solid setup with a few plot holes, starring the {weakest}.",
            "Respectable, but the {weakest} is holding the squad back.",
            "Good run. The {weakest} threw the game.",
        ],
        _ => &[
            "There's a great setup in here, buried under the {weakest}.",
            "It works. That's the nicest thing we can say about the {weakest}.",
            "Speedrunning a setup makeover, starting with the {weakest}.",
        ],
    };
    let summary = pick(lines, &a.summary).replace("{weakest}", weakest);
    Voiced { summary, comments }
}

fn coach(a: &Assessment) -> Voiced {
    let described = a.is_described();
    let comments = voiced(a, |rating| {
        if is_unseen(rating) {
            let thing = thing_to_show(rating.category);
            return if described {
                format!("Next step: say something about your {thing} in the description, so it can be rated.")
            } else {
                format!("Next step: show the {thing} in your next photo, or describe it, so it can be rated.")
            };
        }
        pick(coach_lines(rating), &finding(rating)).to_owned()
    });
    let seen_weakest = a
        .weakest_first()
        .into_iter()
        .filter(|r| !is_unseen(r))
        .find_map(|r| r.score.filter(|&score| score < Points::whole(8)).map(|score| (r.category, score)));
    let summary = match seen_weakest {
        Some((category, score)) => format!("Biggest gain: {} ({score}/10). Start there.", category.name()),
        None if described => "Everything you describe is in good shape: keep it that way.".to_owned(),
        None => "Everything seen is in good shape: keep it that way.".to_owned(),
    };
    Voiced { summary, comments }
}

/// Each rating's finding followed by `line(rating)`, in the assessment's order.
fn voiced(a: &Assessment, line: impl Fn(&CategoryScore) -> String) -> Vec<VoicedComment> {
    a.category_ratings
        .iter()
        .map(|rating| VoicedComment {
            category: rating.category,
            comment: format!("{}. {}", finding(rating), line(rating)),
        })
        .collect()
}

/// The first sentence of a comment, without its full stop: what was found.
fn finding(rating: &CategoryScore) -> String {
    let comment = rating.comment.trim();
    let end = comment.find(". ").unwrap_or(comment.len());
    comment[..end].trim_end_matches('.').to_owned()
}

/// Not rated at all (no chair in the photo), or rated with nothing to go on (a description
/// silent on it; a result saved before unseen categories had no score, with the neutral chair
/// score it gave then).
fn is_unseen(rating: &CategoryScore) -> bool {
    rating.is_unseen()
        || rating.comment.starts_with("The description doesn't")
        || rating.comment.starts_with("No chair is visible")
}

/// One of `lines`, chosen by `key` (FNV-1a: stable across builds and platforms, unlike
/// the standard library's hasher).
fn pick<'a>(lines: &[&'a str], key: &str) -> &'a str {
    let hash =
        key.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3));
    lines[(hash % lines.len() as u64) as usize]
}

/// Low (to 4.5), middling (5 to 7.5) or high (from 8): the three bands every category has
/// lines for.
fn band(score: Points) -> usize {
    if score < Points::whole(5) {
        0
    } else if score < Points::whole(8) {
        1
    } else {
        2
    }
}

fn lower_name(category: Category) -> &'static str {
    match category {
        Category::CableManagement => "cable management",
        Category::RgbLighting => "lighting",
        Category::DeskCleanliness => "desk",
        Category::MonitorSetup => "monitor setup",
        Category::ChairComfort => "chair",
        Category::AestheticVibe => "vibe",
    }
}

fn thing_to_show(category: Category) -> &'static str {
    match category {
        Category::CableManagement => "cables",
        Category::RgbLighting => "lighting",
        Category::DeskCleanliness => "desk surface",
        Category::MonitorSetup => "screens",
        Category::ChairComfort => "chair",
        Category::AestheticVibe => "whole setup",
    }
}

fn unseen_roast(category: Category, described: bool) -> &'static [&'static str] {
    match (category, described) {
        (Category::ChairComfort, false) => &[
            "No chair in sight: either you game standing up, or the chair is camera-shy.",
            "The chair stayed out of frame. Smart move, honestly.",
        ],
        (Category::ChairComfort, true) => &[
            "Not a word about the chair: either you game standing up, or it's a secret.",
            "The chair went unmentioned. Smart move, honestly.",
        ],
        (_, false) => &["It stayed out of the picture, so it escapes the roast. This time."],
        (_, true) => &["You kept quiet about it, so it escapes the roast. This time."],
    }
}

fn roast_lines(rating: &CategoryScore) -> &'static [&'static str] {
    let lines: [&[&str]; 3] = match rating.category {
        Category::CableManagement => [
            &[
                "These cables aren't managed, they're free-range.",
                "Somewhere under there is a desk, held hostage by its cables.",
                "That's not a cable run, that's a cable marathon.",
            ],
            &[
                "Nearly tidy: a few cables clearly didn't get the memo.",
                "The cables are behaving. Mostly.",
                "Half cable management, half cable hope.",
            ],
            &[
                "Suspiciously clean. Where did you hide them?",
                "Cables this tidy probably pay rent.",
                "Wireless in spirit, if not in fact.",
            ],
        ],
        Category::RgbLighting => [
            &[
                "The lighting budget went entirely on the ceiling bulb.",
                "Lit like a tax office on a Monday.",
                "Gamer mode: off. Permanently.",
            ],
            &[
                "A little glow, like the RGB is still shy.",
                "Some colour, but the rainbow is only warming up.",
                "The RGB is on, just not committed.",
            ],
            &[
                "Bright enough to be seen from orbit.",
                "This setup glows harder than your K/D.",
                "Frames per second: high. Colours per square inch: higher.",
            ],
        ],
        Category::DeskCleanliness => [
            &[
                "Archaeologists will date this desk by its layers.",
                "The desk is in there somewhere, under the evidence.",
                "Every item on this desk has a story, and they're all still here.",
            ],
            &[
                "Clean-ish, the way a teenager's room is clean-ish.",
                "A few strays on the desk, waiting for a rescue.",
                "Tidy enough to find the mouse on the first try.",
            ],
            &[
                "So clean it makes other desks nervous.",
                "Minimalism level: even the dust moved out.",
                "A desk with nothing to hide, and nothing on it.",
            ],
        ],
        Category::MonitorSetup => [
            &[
                "The screen situation is giving 'borrowed from the office'.",
                "Neck pain speedrun, any%.",
                "One look at these screens and your posture filed a complaint.",
            ],
            &[
                "Solid screens, slightly wonky placement.",
                "Good screens, just not quite on speaking terms.",
                "Respectable, but the monitors could use a team meeting.",
            ],
            &[
                "Screens lined up like a pro team's starting five.",
                "A monitor setup that could sell monitors.",
                "Pixels everywhere, all at the right height.",
            ],
        ],
        Category::ChairComfort => [
            &[
                "That chair has played a few ranked seasons too many.",
                "Sitting on that is a skill issue for your spine.",
                "Comfort level: waiting room.",
            ],
            &[
                "A decent chair, doing its best.",
                "Sit-able. Not quite throne-able.",
                "The chair works; your back just hasn't said thanks yet.",
            ],
            &["That chair is the real MVP.", "Throne acquired.", "Your spine sends its regards."],
        ],
        Category::AestheticVibe => [
            &[
                "The vibe is 'I just moved in', three years ago.",
                "Aesthetic: default settings.",
                "The theme here is 'stuff I own'.",
            ],
            &[
                "There's a vibe in there, still loading.",
                "Nice bones; the look is at 70% and buffering.",
                "It has a style. It just hasn't picked one yet.",
            ],
            &[
                "This desk has main-character energy.",
                "Pinterest called, they want their board back.",
                "The vibe is immaculate and it knows it.",
            ],
        ],
    };
    lines[rating.score.map_or(1, band)]
}

fn coach_lines(rating: &CategoryScore) -> &'static [&'static str] {
    let lines: [&[&str]; 3] = match rating.category {
        Category::CableManagement => [
            &[
                "Next step: run every cable into one tray under the desk and bundle the rest with \
                 velcro ties; ten minutes for the biggest visible gain.",
                "Next step: start with the longest loose run, clip it along the desk's back edge, \
                 then tie the rest into one bundle.",
            ],
            &[
                "Next step: find the last loose runs and tie them into the bundle you already have.",
                "Next step: a short raceway along the desk leg hides the runs still on show.",
            ],
            &[
                "Keep it: label the bundle's ends so the next upgrade doesn't undo it.",
                "Nothing to fix: route new gear the same way when you add it.",
            ],
        ],
        Category::RgbLighting => [
            &[
                "Next step: an LED strip behind the monitor adds depth and eases eye strain in the \
                 evening.",
                "Next step: one warm lamp or a light bar changes the look more than any new part.",
            ],
            &[
                "Next step: pick one colour scheme and add light on the other side, so the glow \
                 isn't coming from one spot.",
                "Next step: put light behind the desk too, so the colour wraps the setup.",
            ],
            &[
                "Keep it: save the lights as one scene so every device matches.",
                "Nothing to fix: dim them a notch at night for your eyes.",
            ],
        ],
        Category::DeskCleanliness => [
            &[
                "Next step: put everything you don't use daily in a drawer, then bring back only \
                 what earns its place.",
                "Next step: a five-minute reset: bin, dishes, papers, in that order.",
            ],
            &[
                "Next step: give the strays a home, a small organiser or a tray for the little \
                 things.",
                "Next step: keep one corner for everyday items and the rest of the desk clear.",
            ],
            &[
                "Keep it: a two-minute reset at the end of the day keeps it this way.",
                "Nothing to fix: a desk mat would frame it even better.",
            ],
        ],
        Category::MonitorSetup => [
            &[
                "Next step: raise the main screen so its top edge is at eye level; a stand or an \
                 arm does it.",
                "Next step: centre the main screen in front of your chair, an arm's length away.",
            ],
            &[
                "Next step: level the screens at one height and angle them toward you.",
                "Next step: a monitor arm lifts the screen and gives back the desk under it.",
            ],
            &[
                "Keep it: check the top edge is still at eye level whenever you change chairs.",
                "Nothing to fix: a light bar would keep glare off the screen at night.",
            ],
        ],
        Category::ChairComfort => [
            &[
                "Next step: set the seat so your feet rest flat and your knees are level with \
                 your hips, then budget for a chair with lumbar support.",
                "Next step: a lumbar cushion is the cheapest back upgrade until a proper chair.",
            ],
            &[
                "Next step: set the armrests to desk height so your shoulders can relax.",
                "Next step: add lumbar support and set the seat height to the desk.",
            ],
            &[
                "Keep it: re-check the seat height whenever the desk changes.",
                "Nothing to fix: your back is in good hands.",
            ],
        ],
        Category::AestheticVibe => [
            &[
                "Next step: choose two colours and make the desk mat, lights and accessories \
                 follow them.",
                "Next step: one plant and a desk mat do more for the look than new gear.",
            ],
            &[
                "Next step: one accent, a plant, a shelf or a poster, ties the look together.",
                "Next step: match the light colour to the accessories for a single theme.",
            ],
            &[
                "Keep it: buy new gear only in the colours already there.",
                "Nothing to fix: it already looks intentional.",
            ],
        ],
    };
    lines[rating.score.map_or(1, band)]
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::result::{CableInventory, Confidence, Source, overall_score};

    fn assessment(scores: [u8; 6], comment: impl Fn(Category) -> String) -> Assessment {
        let category_ratings: Vec<_> = Category::ALL
            .iter()
            .zip(scores)
            .map(|(&category, score)| CategoryScore {
                category,
                score: Some(Points::whole(score)),
                comment: comment(category),
                confidence: Some(Confidence::High),
            })
            .collect();
        Assessment {
            overall_score: overall_score(&category_ratings),
            summary: "A desk with two monitors.".into(),
            category: "Gaming Setup".into(),
            category_ratings,
            cable_inventory: CableInventory::none(),
            seen: None,
            source: Some(Source::Photo),
        }
    }

    fn seen(category: Category) -> String {
        format!("{category} finding, with a detail. Compared with setups people have rated, it looks better.")
    }

    #[test]
    fn every_voice_keeps_each_finding_and_says_something_else() {
        let a = assessment([2, 5, 9, 3, 6, 8], seen);
        let voices = Voices::of(&a);
        for voiced in [&voices.roast, &voices.coach] {
            assert_eq!(voiced.comments.len(), 6);
            for (rating, said) in a.category_ratings.iter().zip(&voiced.comments) {
                assert_eq!(said.category, rating.category);
                let finding = format!("{} finding, with a detail. ", rating.category);
                assert!(said.comment.starts_with(&finding), "{}", said.comment);
                assert!(said.comment.len() > finding.len() + 10, "{}", said.comment);
                assert!(!said.comment.contains("Compared with"), "one finding, not the whole comment");
            }
        }
        assert!(voices.coach.comments.iter().all(|c| c.comment.contains("Next step:")
            || c.comment.contains("Keep it:")
            || c.comment.contains("Nothing to fix:")));
        assert_ne!(voices.roast, voices.coach);
    }

    #[test]
    fn the_coach_starts_with_the_weakest_category_and_the_roast_names_it() {
        let a = assessment([6, 7, 8, 3, 6, 7], seen);
        let voices = Voices::of(&a);
        assert_eq!(voices.coach.summary, "Biggest gain: Monitor Setup (3/10). Start there.");
        assert!(voices.roast.summary.contains("monitor setup"), "{}", voices.roast.summary);
        let great = assessment([9, 9, 9, 9, 8, 9], seen);
        assert_eq!(Voices::of(&great).coach.summary, "Everything seen is in good shape: keep it that way.");
    }

    #[test]
    fn a_half_point_is_voiced_as_shown_and_banded_by_the_whole_point_below_it() {
        let mut a = assessment([8, 8, 8, 8, 8, 8], seen);
        a.category_ratings[3].score = Some(Points::halves(15)); // Monitor Setup 7.5: below 8
        assert_eq!(Voices::of(&a).coach.summary, "Biggest gain: Monitor Setup (7.5/10). Start there.");
        let band_of = |halves| band(Points::halves(halves));
        assert_eq!([band_of(9), band_of(10), band_of(15), band_of(16)], [0, 1, 1, 2]);
        // 7.5 is voiced as a 7, not as the 8 it is not.
        let mut middling = assessment([7; 6], seen);
        middling.category_ratings[0].score = Some(Points::halves(15));
        let eight = assessment([8; 6], seen);
        let cables =
            |a: &Assessment| Voices::of(a).roast.comment_on(Category::CableManagement).unwrap().to_owned();
        assert_eq!(cables(&middling), cables(&assessment([7; 6], seen)));
        assert_ne!(cables(&middling), cables(&eight));
    }

    #[test]
    fn bands_decide_the_tone_and_low_scores_get_fixes() {
        let low = Voices::of(&assessment([2; 6], seen));
        let high = Voices::of(&assessment([9; 6], seen));
        let cables = |v: &Voiced| v.comment_on(Category::CableManagement).unwrap().to_owned();
        assert!(cables(&low.coach).contains("Next step:"), "{}", cables(&low.coach));
        assert!(!cables(&high.coach).contains("Next step:"), "{}", cables(&high.coach));
        assert_ne!(cables(&low.roast), cables(&high.roast));
    }

    #[test]
    fn an_unseen_chair_is_neither_roasted_nor_coached_as_seen() {
        // The chair scored lowest would be the biggest gain, had it been seen.
        let mut a = assessment([6, 6, 6, 6, 2, 6], seen);
        a.category_ratings[4].score = None;
        a.category_ratings[4].comment = "No chair in view: comfort can't be judged from this photo.".into();
        a.category_ratings[4].confidence = Some(Confidence::Low);
        let voices = Voices::of(&a);
        let coach = voices.coach.comment_on(Category::ChairComfort).unwrap();
        assert!(coach.starts_with("No chair in view: comfort can't be judged from this photo. Next step:"));
        assert!(coach.ends_with("show the chair in your next photo, or describe it, so it can be rated."));
        let roast = voices.roast.comment_on(Category::ChairComfort).unwrap();
        assert!(roast.contains("chair") && !roast.contains("MVP"), "{roast}");
        assert!(!voices.coach.summary.contains("Chair"), "{}", voices.coach.summary);
        assert!(!voices.roast.summary.contains("chair"), "{}", voices.roast.summary);
        // A result saved before unseen categories: the chair's neutral number, said to be unseen.
        let mut old = assessment([6, 6, 6, 6, 5, 6], seen);
        old.category_ratings[4].comment =
            "No chair is visible in the photo; comfort can't be judged from it, so this is a neutral score."
                .into();
        let coach = Voices::of(&old).coach.comment_on(Category::ChairComfort).unwrap().to_owned();
        assert!(coach.ends_with("so it can be rated."), "{coach}");
    }

    #[test]
    fn a_description_is_never_spoken_of_as_a_photo() {
        let mut a = assessment([6, 6, 6, 6, 2, 9], seen);
        a.source = Some(Source::Description);
        a.category_ratings[4].score = None;
        a.category_ratings[4].comment =
            "The description doesn't mention a chair or how you sit, so comfort can't be judged from it."
                .into();
        let great = Assessment { source: Some(Source::Description), ..assessment([9; 6], seen) };
        for voices in [Voices::of(&a), Voices::of(&great)] {
            for voiced in [&voices.roast, &voices.coach] {
                for said in voiced.comments.iter().map(|c| &c.comment).chain([&voiced.summary]) {
                    for photo_word in
                        ["photo", "picture", "in view", "out of frame", "in sight", "Everything seen"]
                    {
                        assert!(!said.contains(photo_word), "{photo_word:?} in {said:?}");
                    }
                }
            }
        }
        let coach = Voices::of(&a).coach.comment_on(Category::ChairComfort).unwrap().to_owned();
        assert!(coach.ends_with("say something about your chair in the description, so it can be rated."));
        assert_eq!(
            Voices::of(&great).coach.summary,
            "Everything you describe is in good shape: keep it that way."
        );
    }

    #[test]
    fn the_same_result_always_reads_the_same_and_others_differ() {
        let a = assessment([3, 3, 3, 3, 3, 3], seen);
        assert_eq!(Voices::of(&a), Voices::of(&a.clone()));
        // Different findings in the same band get different lines somewhere.
        let lines: std::collections::HashSet<String> = (0..12)
            .map(|i| {
                let b = assessment([3; 6], |c| format!("{c} finding number {i}"));
                Voices::of(&b)
                    .roast
                    .comments
                    .iter()
                    .map(|c| c.comment.split(". ").nth(1).unwrap().to_owned())
                    .collect()
            })
            .collect();
        assert!(lines.len() > 3, "{} distinct roasts", lines.len());
    }

    #[test]
    fn voices_are_named_in_urls() {
        assert_eq!(Voice::from_query(Some("roast")), Voice::Roast);
        assert_eq!(Voice::from_query(Some("coach")), Voice::Coach);
        assert_eq!(Voice::from_query(Some("ROAST<script>")), Voice::Honest);
        assert_eq!(Voice::from_query(None), Voice::Honest);
        for voice in [Voice::Honest, Voice::Roast, Voice::Coach] {
            assert_eq!(Voice::from_query(voice.query().strip_prefix("?voice=")), voice);
        }
    }

    #[test]
    fn each_voice_says_one_line_about_a_re_rating() {
        let now = assessment([8, 7, 6, 8, 7, 7], seen);
        let cables =
            Moved { category: Category::CableManagement, from: Points::whole(4), to: Points::whole(8) };
        let desk =
            Moved { category: Category::DeskCleanliness, from: Points::halves(13), to: Points::whole(6) };
        let up = change_lines(5.2, 7.8, &[cables, desk], &now);
        assert_eq!(
            up.honest,
            "Up 2.6 since last time (5.2 \u{2192} 7.8); Cable Management improved the most (4 \u{2192} 8)."
        );
        assert!(
            !up.roast.is_empty() && !up.roast.contains("7.8"),
            "the scores are shown beside it: {}",
            up.roast
        );
        assert_eq!(up.coach, "Cable Management paid off (4 \u{2192} 8). Next: Desk Cleanliness.");

        let down = change_lines(7.8, 5.2, &[desk], &now);
        assert_eq!(
            down.honest,
            "Down 2.6 since last time (7.8 \u{2192} 5.2); Desk Cleanliness slipped the most (6.5 \u{2192} 6)."
        );
        assert_eq!(down.coach, "Win back Desk Cleanliness first (6.5 \u{2192} 6).");

        let same = change_lines(6.0, 6.2, &[], &now);
        assert_eq!(same.honest, "About the same as last time (6.0 \u{2192} 6.2).");
        for line in [&up.roast, &down.roast, &same.roast] {
            assert!(!line.contains('{'), "{line}");
        }
    }
}
