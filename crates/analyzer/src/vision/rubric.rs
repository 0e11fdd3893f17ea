//! The rubric: the evidence gathered from a photo turned into six scores, each with a comment
//! that says what was seen, the kind of setup, and a short summary.
//!
//! Each category first gets an *evidence score*: it starts from a middle value and moves for
//! reasons the comment names (`docs/scoring.md` lists the rules in prose). The score shown is
//! then the learned calibration's judgement of the whole photo mixed with that evidence score
//! ([`calibration::judge`]) and rounded to the nearest half point ([`Points::nearest`]); where
//! the two differ by 2 points or more the comment says so, and the category's confidence
//! drops. Evidence scores stay whole points: they are what the calibration was fitted on. A category the photo doesn't show ([`unseen`]: no seat,
//! no screen) gets no score, with low confidence, and is left out of the overall score.

use crate::result::{
    Assessment, CableInventory, CablePlace, Category, CategoryScore, Confidence, Light, Points, Seat, Seen,
    Source, overall_score, round1,
};
use crate::words::{capitalised, join};

use super::Evidence;
use super::cables::{self, Place};
use super::calibration::{self, Features};
use super::geometry::{Rect, Side};
use super::layout::{Arrangement, Layout};
use super::stats::{Hue, Lighting, Tone};

/// A category's score, its comment, and the few words the summary quotes.
#[derive(Debug, Clone, PartialEq)]
struct Rated {
    /// The score shown: the evidence score, replaced by the learned judgement (in half
    /// points) where there is one.
    score: Points,
    /// The evidence score alone, a whole point: what the calibration mixes in and reads.
    evidence: u8,
    /// The shown score as whole points rounded it before half points (the learned judgement
    /// rounded to the nearest point): what the setup's kind reads, so that it names the same
    /// kind as it did.
    whole: u8,
    comment: String,
    headline: String,
    /// The comment says that something is not there ("no loose cables visible"): a claim the
    /// detector can't back where the learned judgement scores the category lower ([`judge`]).
    claims_absence: bool,
}

impl Rated {
    fn new(points: f32, headline: impl Into<String>, details: &[String]) -> Rated {
        let headline = headline.into();
        let mut sentence = capitalised(&headline);
        for detail in details.iter().filter(|d| !d.is_empty()) {
            // "with ..." continues the headline; anything else is a new clause.
            sentence.push_str(if detail.starts_with("with ") { ", " } else { "; " });
            sentence.push_str(detail);
        }
        sentence.push('.');
        let evidence = score(points);
        Rated {
            score: Points::whole(evidence),
            evidence,
            whole: evidence,
            comment: sentence,
            headline,
            claims_absence: false,
        }
    }

    /// Marks the comment as saying that something is absent (see [`Rated::claims_absence`]).
    fn of_absence(self) -> Rated {
        Rated { claims_absence: true, ..self }
    }
}

/// Rounds and clamps an evidence score to the 1-10 scale in whole points.
fn score(points: f32) -> u8 {
    points.round().clamp(1.0, 10.0) as u8
}

/// Rates the evidence; `features` is the scene classifier's view of the photo the learned
/// judgement reads (without it, the evidence scores alone).
pub fn rate(evidence: &Evidence, features: Option<&Features<'_>>) -> Assessment {
    let mut rated = evidence_ratings(evidence);
    let measured = measures_of(evidence, &rated);
    let features = features.map(|f| Features { measures: &measured, ..*f });
    let features = features.as_ref();
    // The chair gate settles which chair is in view once the measures (what the learned
    // scores were fitted on: the boxes as found) are taken; the comments and whether Chair &
    // Comfort is rated follow it.
    let settled = features.and_then(|f| {
        let mut layout = evidence.layout.clone();
        let in_view = calibration::chair_in_view(f, evidence.layout.chair_score);
        layout.settle_chairs(in_view).then(|| Evidence { layout, ..evidence.clone() })
    });
    if let Some(settled) = &settled {
        rated = evidence_ratings(settled);
    }
    let evidence = settled.as_ref().unwrap_or(evidence);
    let mut confidences = [None; 6];
    if let Some(features) = features {
        for ((category, r), confidence) in rated.iter_mut().zip(&mut confidences) {
            *confidence = Some(judge(*category, r, evidence, features));
        }
    }
    let category_ratings: Vec<CategoryScore> = rated
        .iter()
        .zip(confidences)
        .map(|((category, r), confidence)| CategoryScore {
            category: *category,
            score: (!unseen(*category, evidence)).then_some(r.score),
            comment: r.comment.clone(),
            confidence,
        })
        .collect();
    let kind = setup_kind(evidence, &rated);
    let seen_only: Vec<_> = rated.iter().filter(|(c, _)| !unseen(*c, evidence)).cloned().collect();
    let summary = summary(&kind, &evidence.layout, &seen_only);
    // The learned overall score where there is one: a person's overall judgement of the
    // whole photo, which orders setups better than any mix of the six (make eval).
    let overall = features.map_or_else(
        || overall_score(&category_ratings),
        |features| round1(f64::from(calibration::overall(features))),
    );
    Assessment {
        overall_score: overall,
        summary,
        category: kind,
        category_ratings,
        cable_inventory: CableInventory::of(cables::inventory(&evidence.cables)),
        seen: Some(seen(evidence)),
        source: Some(Source::Photo),
    }
}

/// The six categories as the evidence alone rates them.
fn evidence_ratings(evidence: &Evidence) -> [(Category, Rated); 6] {
    [
        (Category::CableManagement, cable_management(evidence)),
        (Category::RgbLighting, rgb_lighting(evidence)),
        (Category::DeskCleanliness, desk_cleanliness(evidence)),
        (Category::MonitorSetup, monitor_setup(&evidence.layout)),
        (Category::ChairComfort, chair_comfort(evidence)),
        (Category::AestheticVibe, aesthetic_vibe(evidence)),
    ]
}

/// How many values [`measures`] gives.
pub const MEASURES: usize = 23;

/// See [`super::measures`].
#[cfg(feature = "internals")]
pub fn measures(evidence: &Evidence) -> Vec<f32> {
    measures_of(evidence, &evidence_ratings(evidence))
}

fn measures_of(evidence: &Evidence, rated: &[(Category, Rated); 6]) -> Vec<f32> {
    let layout = &evidence.layout;
    #[allow(clippy::cast_precision_loss)] // counts of boxes
    let count = |n: usize| (n as f32).ln_1p();
    let couches = layout.seats.iter().filter(|s| s.is_couch).count();
    let mut measures = vec![
        count(layout.monitors.len()),
        count(layout.laptops.len()),
        count(layout.keyboards.len()),
        count(layout.mice.len()),
        count(layout.seats.len() - couches),
        count(couches),
        count(layout.plants.len()),
        count(layout.clutter.len()),
        count(layout.pc_cases.len()),
        count(evidence.cables.len()),
        evidence.lighting.light_share,
        evidence.lighting.share_of_visible,
        evidence.lighting.median_value,
        evidence.palette.coverage(3),
        evidence.greenery.share,
        evidence.desk_edges,
        evidence.symmetry.unwrap_or(0.0),
    ];
    measures.extend(
        rated
            .iter()
            .map(|(category, r)| if unseen(*category, evidence) { 5.0 } else { f32::from(r.evidence) }),
    );
    debug_assert_eq!(measures.len(), MEASURES);
    measures
}

/// Whether the photo doesn't show `category` at all: no seat for Chair & Comfort; for Monitor
/// Setup, no monitor or laptop boxed and no screen the scene classifier sees. Such a category
/// gets no score.
fn unseen(category: Category, evidence: &Evidence) -> bool {
    let layout = &evidence.layout;
    match category {
        Category::ChairComfort => layout.seats.is_empty(),
        Category::MonitorSetup => {
            layout.monitors.is_empty() && layout.laptops.is_empty() && !evidence.screen_in_view
        }
        _ => false,
    }
}

/// How much coloured light the photo shows.
fn light(e: &Evidence) -> Light {
    let l = &e.lighting;
    if l.light_share < SOME_LIGHT {
        Light::White
    } else if accent_hues(l).is_empty() || light_amount(l) < SATURATED_WORDING {
        Light::Accent
    } else {
        Light::Neon
    }
}

/// The facts behind the comments, by the same thresholds the comments use.
fn seen(e: &Evidence) -> Seen {
    let layout = &e.layout;
    let chair = layout.seats.iter().any(|s| !s.is_couch);
    let seat = if chair {
        Seat::DeskChair
    } else if layout.seats.is_empty() {
        Seat::Nothing
    } else {
        Seat::Couch
    };
    let l = &e.lighting;
    let light = light(e);
    let light_colours = if light == Light::White {
        Vec::new()
    } else {
        accent_hues(l).iter().map(|h| h.name().to_owned()).collect()
    };
    Seen {
        monitors: Some(small(layout.monitors.len())),
        laptops: Some(small(layout.laptops.len())),
        uneven_monitors: monitors_uneven(layout),
        stacked_monitors: layout.monitors.len() == 2 && layout.arrangement == Arrangement::Stacked,
        // A photo doesn't show what holds a monitor up.
        on_arms: false,
        loose_cables: Some(u32::try_from(e.cables.len()).unwrap_or(u32::MAX)),
        cables_mostly: cable_groups(&e.cables).first().map(|&(place, _, _)| match place {
            Place::UnderDesk => CablePlace::UnderDesk,
            Place::BehindMonitor => CablePlace::BehindMonitor,
            Place::OnDesk => CablePlace::OnDesk,
        }),
        seat: Some(seat),
        dark_room: l.median_value < DARK_ROOM,
        light: Some(light),
        light_colours,
        plants: Some(small(layout.plants.len())),
        greenery: e.greenery.share >= GREENERY,
        clutter: clutter_counts(layout).iter().map(|&(label, n)| count(n, label)).collect(),
        busy_desk: ramp(e.desk_edges, CLEAR_SURFACE_EDGES, COVERED_SURFACE_EDGES) >= SOME_SMALL_ITEMS,
    }
}

fn small(n: usize) -> u8 {
    u8::try_from(n).unwrap_or(u8::MAX)
}

/// The evidence score and the calibration this far apart (points) are worth saying so.
const DISAGREE: f64 = 2.0;
/// ...and this far apart, the score is a low-confidence one.
const DISAGREE_STRONGLY: f64 = 3.0;

/// Replaces the evidence score in `r` with the learned one and answers how confident the
/// result is. Where the two differ by [`DISAGREE`] points or more, the comment leads with what
/// the learned score means for the category and says that the measured details alone would
/// score it otherwise: it never reads as the opposite of its score. Where the learned score is
/// the lower and the details say something is absent ("no loose cables visible"), the detector
/// most likely missed it (cables it did not trace, a headset it has no class for), so the
/// comment says less: it doesn't repeat the absence.
fn judge(category: Category, r: &mut Rated, evidence: &Evidence, features: &Features<'_>) -> Confidence {
    if unseen(category, evidence) {
        return Confidence::Low;
    }
    let learned = calibration::score(category, features, r.evidence);
    let judged = Points::nearest(f64::from(learned));
    let gap = judged.distance(r.score);
    if gap >= DISAGREE {
        let (comment, headline) = disagreeing(category, r, judged);
        r.comment = comment;
        r.headline = headline.to_owned();
    }
    r.score = judged;
    r.whole = score(learned);
    match gap {
        g if g >= DISAGREE_STRONGLY => Confidence::Low,
        g if g >= DISAGREE => Confidence::Medium,
        _ => Confidence::High,
    }
}

/// The comment and the summary's words for `r` where the learned judgement, `judged`, and the
/// measured details disagree (see [`judge`]).
fn disagreeing(category: Category, r: &Rated, judged: Points) -> (String, &'static str) {
    let otherwise = if judged > r.score { "lower" } else { "higher" };
    let (looks, headline) = band_words(category, judged);
    let comment = if r.claims_absence && judged < r.score {
        format!("{looks} The details measured alone would score it {otherwise}.")
    } else {
        let detail = r.comment.trim_end_matches('.');
        format!(
            "{looks} Measured alone, the details ({}) would score it {otherwise}.",
            lowercase_first(detail)
        )
    };
    (comment, headline)
}

/// A score's band: low (1-4.5), middle (5-6.5), high (7-10).
fn band(score: Points) -> usize {
    if score < Points::whole(5) {
        0
    } else if score < Points::whole(7) {
        1
    } else {
        2
    }
}

/// What a score in `category` means, as setups people have rated compare: the comment's lead
/// and the few words the summary quotes, where the learned judgement and the measured details
/// disagree.
fn band_words(category: Category, score: Points) -> (String, &'static str) {
    /// Per category, per band: how it looks, and the summary's words.
    const WORDS: [[(&str, &str); 3]; 6] = [
        [
            ("the cabling looks untidy overall", "untidy cabling"),
            ("the cabling looks fairly ordinary: some of it shows", "some cabling on show"),
            ("the cabling looks well kept overall", "well-kept cabling"),
        ],
        [
            ("the lighting is plain room light with little mood to it", "plain room light"),
            ("the lighting has some atmosphere but no strong accent", "some atmosphere"),
            ("the lighting sets a deliberate mood", "deliberate mood lighting"),
        ],
        [
            ("the desk looks busy and cluttered overall", "a busy, cluttered desk"),
            ("the desk looks fairly tidy with a few things about", "a fairly tidy desk"),
            ("the desk looks clean and clear overall", "a clean, clear desk"),
        ],
        [
            ("the screens look makeshift or awkwardly placed", "a makeshift screen arrangement"),
            ("the screens are an ordinary, workable arrangement", "a workable screen arrangement"),
            ("the screens look well chosen and well placed", "well-placed screens"),
        ],
        [
            ("the seating looks basic", "basic seating"),
            ("the seating looks adequate", "adequate seating"),
            ("the seating looks comfortable and well chosen", "comfortable seating"),
        ],
        [
            ("the look is unfinished overall", "an unfinished look"),
            ("the look is pleasant but ordinary", "a pleasant, ordinary look"),
            ("the look is cohesive and polished", "a cohesive, polished look"),
        ],
    ];
    let row = Category::ALL.iter().position(|c| *c == category).unwrap_or(0);
    let (looks, headline) = WORDS[row][band(score)];
    (format!("Compared with setups people have rated, {looks}."), headline)
}

fn lowercase_first(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| first.to_lowercase().chain(chars).collect())
}

// ---------------------------------------------------------------------------------------
// Cable Management

/// With no loose cable in sight, a bright photo earns this...
const NO_CABLES_SEEN: f32 = 9.0;
/// ...and a dark one less: cables hide in the dark.
const NO_CABLES_SEEN_DARK: f32 = 7.0;
/// A room this dark (median HSV value) hides cables and makes lights stand out.
const DARK_ROOM: f32 = 0.25;
/// Each loose line costs this much; under the desk more, behind the monitor less.
const LOOSE_CABLE_COST: f32 = 1.0;
const UNDER_DESK_COST: f32 = 1.25;
const BEHIND_MONITOR_COST: f32 = 0.5;
/// However many cables, the score does not fall below this (they can all be tidied).
const CABLE_FLOOR: f32 = 2.0;

fn cable_management(e: &Evidence) -> Rated {
    let dark = e.lighting.median_value < DARK_ROOM;
    if e.cables.is_empty() {
        return if dark {
            Rated::new(
                NO_CABLES_SEEN_DARK,
                "no loose cables visible",
                &["the room is dark, so cables may be hiding in the shadows".to_owned()],
            )
            .of_absence()
        } else {
            Rated::new(
                NO_CABLES_SEEN,
                "no loose cables visible",
                &["the desk and the area under it look tidy".to_owned()],
            )
            .of_absence()
        };
    }
    let cost: f32 = e
        .cables
        .iter()
        .map(|t| match t.place {
            Place::UnderDesk => UNDER_DESK_COST,
            Place::BehindMonitor => BEHIND_MONITOR_COST,
            Place::OnDesk => LOOSE_CABLE_COST,
        })
        .sum();
    let points = (NO_CABLES_SEEN - cost).max(CABLE_FLOOR);
    let described: Vec<String> = cable_groups(&e.cables)
        .iter()
        .take(3)
        .map(|&(place, side, n)| format!("{} {}", count(n, "loose cable"), cables::location(place, side)))
        .collect();
    let headline = described.first().cloned().unwrap_or_default();
    Rated::new(points, headline, &described[1..])
}

/// The loose cables by place and side, the biggest group first.
fn cable_groups(traces: &[cables::Trace]) -> Vec<(Place, Side, usize)> {
    let mut groups: Vec<(Place, Side, usize)> = Vec::new();
    for t in traces {
        match groups.iter_mut().find(|g| g.0 == t.place && g.1 == t.side) {
            Some(g) => g.2 += 1,
            None => groups.push((t.place, t.side, 1)),
        }
    }
    groups.sort_by_key(|g| (std::cmp::Reverse(g.2), g.0, g.1 as u8));
    groups
}

// ---------------------------------------------------------------------------------------
// RGB/Lighting

/// Below this share of coloured-light pixels there is no coloured lighting to speak of.
const SOME_LIGHT: f32 = 0.005;
/// Coloured light covering this share of the scene is as much as the score rewards.
const FULL_LIGHT: f32 = 0.08;
/// In a dark room, coloured light making up this share of everything visible (not black) is
/// as much as the score rewards: a room lit by its LEDs alone.
const SOME_OF_VISIBLE: f32 = 0.05;
const FULL_OF_VISIBLE: f32 = 0.4;
/// Coloured light covering this share is enough to speak of its colours (and to reward a
/// multi-colour setup, and to count as an accent in the Aesthetic Vibe).
const SATURATED_LIGHT: f32 = 0.02;
/// Shares of the full reward from which the light is described as "saturated" and "bright
/// saturated".
const SATURATED_WORDING: f32 = 0.2;
const BRIGHT_WORDING: f32 = 0.7;
/// A hue must make up this share of the coloured light to be named as an accent.
const ACCENT_HUE: f32 = 0.12;
/// A scene this bright (median HSV value) without coloured light is lit evenly by white light.
const BRIGHT_ROOM: f32 = 0.45;

fn rgb_lighting(e: &Evidence) -> Rated {
    let l = &e.lighting;
    let dark = l.median_value < DARK_ROOM;
    let cases = case_phrase(&e.layout);
    if l.light_share < SOME_LIGHT {
        let (points, headline) = if l.median_value >= BRIGHT_ROOM {
            (4.0, "no coloured lighting: the room is lit evenly by white light")
        } else if dark {
            (2.0, "no coloured lighting and the room is dark")
        } else {
            (3.0, "no coloured lighting and the room is fairly dim")
        };
        return Rated::new(points, headline, &[cases]);
    }
    let hues = accent_hues(l);
    let Some((&main, accents)) = hues.split_first() else {
        return Rated::new(4.0, "a little coloured light", &[cases]);
    };
    let amount = light_amount(l);
    let mut points = 4.0 + 4.0 * amount;
    if l.light_share >= SATURATED_LIGHT {
        points += match hues.len() {
            0 | 1 => 0.0,
            2 => 0.5,
            _ => 1.0,
        };
    }
    if dark {
        points += 1.0;
    }
    let strength = if amount >= BRIGHT_WORDING {
        "bright saturated"
    } else if amount >= SATURATED_WORDING {
        "saturated"
    } else {
        "a touch of"
    };
    let place = l.main_at.map(|at| light_place(&e.layout, at)).unwrap_or_default();
    let headline = format!("{strength} {} light {place}", main.name());
    let mut details = Vec::new();
    if !accents.is_empty() {
        let names: Vec<&str> = accents.iter().map(|h| h.name()).collect();
        details.push(format!("with {} accents", join(&names)));
    }
    details.push(cases);
    if dark {
        details.push("the dark room makes the lighting stand out".to_owned());
    }
    Rated::new(points, headline, &details)
}

/// The hues that each make up enough of the coloured light to be named, main first.
fn accent_hues(l: &Lighting) -> Vec<Hue> {
    l.hues.iter().filter(|(_, share)| *share >= ACCENT_HUE).map(|(h, _)| *h).take(3).collect()
}

/// How much coloured light there is, 0 to 1: of the whole scene, or of what is visible in a
/// dark room, whichever says more.
fn light_amount(l: &Lighting) -> f32 {
    ramp(l.light_share, SOME_LIGHT, FULL_LIGHT).max(ramp(
        l.share_of_visible,
        SOME_OF_VISIBLE,
        FULL_OF_VISIBLE,
    ))
}

/// Where the main light is: "behind the desk, left side", "under the desk, centre", ...
fn light_place(layout: &Layout, (x, y): (f32, f32)) -> String {
    let side = Side::of(x).phrase();
    if layout.pc_cases.iter().any(|c| c.grown(0.02, 0.02).contains(x, y)) {
        return "inside the glass PC case".to_owned();
    }
    if y > layout.desk_front {
        return format!("under the desk, {side}");
    }
    match layout.screen_bounds() {
        Some(s) if y < s.y0 => format!("on the wall above the desk, {side}"),
        Some(s) if y <= s.y1 && s.grown(0.1, 0.0).contains(x, y) => format!("behind the monitor, {side}"),
        Some(s) if y <= s.y1 => format!("behind the desk, {side}"),
        _ => format!("on the desk, {side}"),
    }
}

fn case_phrase(layout: &Layout) -> String {
    match layout.pc_cases.as_slice() {
        [] => String::new(),
        [case] => format!("a glowing glass PC case {}", Side::of(case.centre_x()).adverb()),
        cases => format!("{} glowing glass PC cases", cases.len()),
    }
}

// ---------------------------------------------------------------------------------------
// Desk Cleanliness

/// Edge density of a clear desk surface (print on a mousepad, wood grain)...
const CLEAR_SURFACE_EDGES: f32 = 0.08;
/// ...and of one covered in small objects and papers.
const COVERED_SURFACE_EDGES: f32 = 0.35;
/// How many points a fully covered surface loses.
const COVERED_COST: f32 = 4.0;
/// Each clutter object the detector found costs this much, up to CLUTTER_MAX_COST.
const CLUTTER_ITEM_COST: f32 = 0.5;
const CLUTTER_MAX_COST: f32 = 4.0;
/// From this share of a covered surface on, the desk has some small items on it.
const SOME_SMALL_ITEMS: f32 = 0.25;

fn desk_cleanliness(e: &Evidence) -> Rated {
    let items = e.layout.clutter.len();
    let busy = ramp(e.desk_edges, CLEAR_SURFACE_EDGES, COVERED_SURFACE_EDGES);
    let points = 9.5 - COVERED_COST * busy - (CLUTTER_ITEM_COST * items as f32).min(CLUTTER_MAX_COST);
    let listed = clutter_list(&e.layout);
    let side = e.busiest_side.map(|s| format!("busiest {}", s.adverb())).unwrap_or_default();
    if items == 0 && busy < SOME_SMALL_ITEMS {
        // Around the gear, not "only the gear": the detector knows no headset, controller or
        // cup of every kind, so it can't say nothing else is there.
        let gear = gear_list(&e.layout);
        return Rated::new(points, format!("clear desk surface around the {gear}"), &[]).of_absence();
    }
    let surface = if busy >= 0.6 {
        "the surface is covered in small items and papers"
    } else if busy >= SOME_SMALL_ITEMS {
        "some small items on the surface"
    } else {
        "the rest of the surface is clear"
    };
    if items == 0 {
        return Rated::new(points, surface, &[side]);
    }
    Rated::new(points, format!("{listed} on the desk"), &[surface.to_owned(), side])
}

/// "6 bottles, 4 cups and a book".
fn clutter_list(layout: &Layout) -> String {
    let parts: Vec<String> = clutter_counts(layout).iter().map(|&(label, n)| count(n, label)).collect();
    join(&parts)
}

/// The clutter by kind, the most first.
fn clutter_counts(layout: &Layout) -> Vec<(&'static str, usize)> {
    let mut counts: Vec<(&'static str, usize)> = Vec::new();
    for item in &layout.clutter {
        let label = item.class.label();
        match counts.iter_mut().find(|(l, _)| *l == label) {
            Some((_, n)) => *n += 1,
            None => counts.push((label, 1)),
        }
    }
    counts.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    counts
}

fn gear_list(layout: &Layout) -> String {
    let mut parts = Vec::new();
    if !layout.keyboards.is_empty() {
        parts.push("keyboard");
    }
    if !layout.mice.is_empty() {
        parts.push("mouse");
    }
    if !layout.laptops.is_empty() {
        parts.push("laptop");
    }
    if parts.is_empty() {
        parts.push("monitor");
    }
    join(&parts)
}

// ---------------------------------------------------------------------------------------
// Monitor Setup

/// A main screen's centre this close to the keyboard's (fraction of the width) is centred
/// over it; this far off, it sits to one side (neck strain).
const CENTRED: f32 = 0.08;
const OFF_CENTRE: f32 = 0.15;
/// A screen box narrower than this (width / height in pixels) is not one landscape screen
/// (16:9 is 1.78, 4:3 is 1.33; two stacked 16:9 screens are 0.89).
const TALL_SCREEN: f32 = 1.2;

fn monitor_setup(layout: &Layout) -> Rated {
    let n = layout.monitors.len();
    let laptop = !layout.laptops.is_empty();
    let (mut points, mut headline) = match (n, layout.arrangement) {
        (0, _) if laptop => (4.0, "a laptop as the only screen".to_owned()),
        // Screening refuses photos without gear; the rubric can still be asked directly.
        (0, _) => (3.0, "no screen in view: the monitor setup can't be judged from this photo".to_owned()),
        (1, _) if layout.has_ultrawide() => (7.5, format!("1 ultrawide monitor {}", where_on_desk(layout))),
        // A box taller than a landscape screen is one portrait monitor or two stacked ones that
        // the detector boxed together: the comment doesn't count them.
        (1, _) if layout.monitors.iter().any(|m| m.aspect(layout.aspect) < TALL_SCREEN) => {
            // The same points as one monitor: the learned judgement reads them as before.
            (6.0, format!("a tall screen area (a portrait monitor or two stacked) {}", where_on_desk(layout)))
        }
        (1, _) => (6.0, format!("1 monitor {}", where_on_desk(layout))),
        (2, Arrangement::Stacked) => (7.5, "2 monitors stacked one above the other".to_owned()),
        (n, Arrangement::SideBySide { same_height: true }) => {
            (7.0 + (n.min(3) - 1) as f32 * 0.75, format!("{n} monitors side by side at the same height"))
        }
        (n, _) => (6.5 + (n.min(3) - 2) as f32 * 0.75, format!("{n} monitors at different heights")),
    };
    if n > 0 && laptop {
        points += 0.5;
        headline.push_str(" plus a laptop beside it as an extra screen");
        if n > 1 {
            headline = headline.replace("beside it", "beside them");
        }
    }
    let mut details = Vec::new();
    let main = layout
        .monitors
        .iter()
        .chain(&layout.laptops)
        .copied()
        .reduce(|a, b| if b.area() > a.area() { b } else { a });
    if let (Some(screen), Some(keyboard)) = (main, layout.keyboards.iter().copied().reduce(widest)) {
        let offset = screen.centre_x() - keyboard.centre_x();
        let what = if n == 0 { "the laptop" } else { "the main screen" };
        if offset.abs() <= CENTRED {
            points += 0.5;
            details.push(format!("{what} is centred over the keyboard"));
        } else if offset.abs() >= OFF_CENTRE {
            points -= 0.5;
            let side = if offset < 0.0 { "left" } else { "right" };
            details
                .push(format!("{what} sits to the {side} of the keyboard, so you turn your head to use it"));
        }
    }
    Rated::new(points, headline, &details)
}

/// Two or more monitors that [`monitor_setup`] calls "at different heights": neither side by
/// side at the same height nor a pair stacked one above the other.
fn monitors_uneven(layout: &Layout) -> bool {
    let n = layout.monitors.len();
    n >= 2
        && !matches!(
            (n, layout.arrangement),
            (2, Arrangement::Stacked) | (_, Arrangement::SideBySide { same_height: true })
        )
}

/// "in the centre", "on the left": where the (first) monitor stands in the photo.
fn where_on_desk(layout: &Layout) -> &'static str {
    layout.monitors.first().map_or("", |m| Side::of(m.centre_x()).adverb())
}

fn widest(a: Rect, b: Rect) -> Rect {
    if b.width() > a.width() { b } else { a }
}

// ---------------------------------------------------------------------------------------
// Chair & Comfort

/// No seat in view: never shown, the category is [`unseen`].
const NO_CHAIR: f32 = 5.0;
const DESK_CHAIR: f32 = 7.0;
const COUCH_ONLY: f32 = 5.5;

fn chair_comfort(e: &Evidence) -> Rated {
    let layout = &e.layout;
    let chair =
        layout.seats.iter().filter(|s| !s.is_couch).max_by(|a, b| a.rect.area().total_cmp(&b.rect.area()));
    let couch = layout.seats.iter().find(|s| s.is_couch);
    match (chair, couch) {
        (Some(chair), _) => {
            let colour = seat_colour(e, &chair.rect);
            let in_front =
                layout.gear_bounds().is_some_and(|g| (g.x0..=g.x1).contains(&chair.rect.centre_x()));
            let (points, where_) = if in_front {
                (DESK_CHAIR + 1.0, "pulled up to the desk in front of the screens".to_owned())
            } else {
                (
                    DESK_CHAIR,
                    format!(
                        "{} of the desk, not in front of the screens",
                        Side::of(chair.rect.centre_x()).adverb()
                    ),
                )
            };
            let headline = format!("a {colour}desk chair {where_}");
            let note =
                if couch.is_some() { "plus a couch or armchair nearby".to_owned() } else { String::new() };
            Rated::new(points, headline, &[note])
        }
        (None, Some(couch)) => Rated::new(
            COUCH_ONLY,
            format!(
                "a couch or armchair {} rather than a desk chair",
                Side::of(couch.rect.centre_x()).adverb()
            ),
            &[],
        ),
        (None, None) => {
            Rated::new(NO_CHAIR, "no chair in view: comfort can't be judged from this photo", &[])
        }
    }
}

/// "black ", "white ", "grey " or "" when the seat's middle has no dominant neutral tone.
/// Only neutral tones are named: a mesh or a seen-through backrest takes the colour of
/// whatever is behind it, and that is usually not black, white or grey.
fn seat_colour(e: &Evidence, seat: &Rect) -> String {
    let middle = Rect::new(
        seat.x0 + seat.width() * 0.25,
        seat.y0 + seat.height() * 0.2,
        seat.x1 - seat.width() * 0.25,
        seat.y1 - seat.height() * 0.4,
    );
    e.seat_tone(&middle)
        .filter(|t| matches!(t, Tone::Black | Tone::White | Tone::Grey))
        .map(|t| format!("{} ", t.name()))
        .unwrap_or_default()
}

// ---------------------------------------------------------------------------------------
// Aesthetic Vibe

/// The three main tones covering this much of the picture make a coherent palette; below
/// MIXED_PALETTE it is a mix of many colours.
const COHERENT_PALETTE: f32 = 0.8;
const MIXED_PALETTE: f32 = 0.6;
/// A tone covering this share is part of the palette named in the comment.
const PALETTE_TONE: f32 = 0.1;
/// Leafy green covering this share of the scene is greenery worth naming.
const GREENERY: f32 = 0.04;
/// A mirror difference (mean luma difference, 0-1) this small is a symmetrical layout.
const SYMMETRIC: f32 = 0.12;

fn aesthetic_vibe(e: &Evidence) -> Rated {
    let layout = &e.layout;
    let mut points = 5.0;
    let mut parts: Vec<String> = Vec::new();

    let plants = layout.plants.len();
    let green = e.greenery.share >= GREENERY;
    if plants > 0 {
        points += match plants {
            1 => 1.0,
            2 => 1.5,
            _ => 2.0,
        };
        let sides = plant_sides(&layout.plants);
        let more = if green && plants >= 2 { " and lots of greenery" } else { "" };
        parts.push(format!("{} {sides}{more}", count(plants, "plant")));
    } else if green {
        points += 0.5;
        let side = e.greenery.at.map(|(x, _)| Side::of(x).adverb()).unwrap_or("in view");
        parts.push(format!("greenery (plants or a view of trees) {side}"));
    }

    let coverage = e.palette.coverage(3);
    let tones: Vec<&str> = e.palette.main_tones(PALETTE_TONE).iter().take(3).map(|t| t.name()).collect();
    if coverage >= COHERENT_PALETTE && !tones.is_empty() {
        points += 1.0;
        parts.push(match tones.as_slice() {
            [one] => format!("a coherent, mostly {one} look"),
            _ => format!("a coherent palette of {}", join(&tones)),
        });
    } else if coverage < MIXED_PALETTE {
        points -= 0.5;
        parts.push("a busy mix of many colours".to_owned());
    } else if !tones.is_empty() {
        parts.push(format!("mostly {}", join(&tones)));
    }

    if e.lighting.light_share >= SATURATED_LIGHT
        && let Some((hue, _)) = e.lighting.hues.first()
    {
        points += 0.5;
        parts.push(format!("{} accent lighting", hue.name()));
    }
    if e.symmetry.is_some_and(|d| d <= SYMMETRIC) {
        points += 0.5;
        parts.push("a balanced, symmetrical layout around the screens".to_owned());
    }
    match layout.clutter.len() {
        0..=1 => {}
        2..=4 => {
            points -= 0.5;
            parts.push("a few loose items take away from it".to_owned());
        }
        _ => {
            points -= 1.5;
            parts.push("the clutter on the desk takes away from it".to_owned());
        }
    }
    let headline = parts.first().cloned().unwrap_or_else(|| "a plain, neutral look".to_owned());
    Rated::new(points, headline, parts.get(1..).unwrap_or_default())
}

/// "on the left and right", "in the centre".
fn plant_sides(plants: &[Rect]) -> String {
    let mut sides: Vec<Side> = plants.iter().map(|p| Side::of(p.centre_x())).collect();
    sides.sort_by_key(|s| *s as u8);
    sides.dedup();
    match sides.as_slice() {
        [one] => one.adverb().to_owned(),
        [Side::Left, Side::Right] => "on the left and right".to_owned(),
        _ => "around the desk".to_owned(),
    }
}

// ---------------------------------------------------------------------------------------
// Kind and summary

fn setup_kind(e: &Evidence, rated: &[(Category, Rated); 6]) -> String {
    // Read in whole points, as before half points: a learned 6.6 (shown 6.5) is a 7 here.
    let score_of = |c: Category| rated.iter().find(|(k, _)| *k == c).map_or(0, |(_, r)| r.whole);
    let layout = &e.layout;
    // Saturated RGB light that sets the room's colour names the kind from a 7 on; a score of
    // 8 names it whatever the light measured.
    let rgb = score_of(Category::RgbLighting);
    let kind = if rgb >= 8 || (rgb >= 7 && light(e) == Light::Neon) {
        "RGB Gaming Battlestation"
    } else if layout.plants.len() >= 2 || (!layout.plants.is_empty() && e.greenery.share >= GREENERY) {
        "Plant-Filled Workspace"
    } else if layout.monitors.len() >= 3 || (layout.monitors.len() >= 2 && !layout.laptops.is_empty()) {
        "Multi-Monitor Workstation"
    } else if layout.monitors.len() == 2 {
        "Dual-Monitor Setup"
    } else if layout.monitors.is_empty() && !layout.laptops.is_empty() {
        "Laptop Corner"
    } else if score_of(Category::DeskCleanliness) <= 4 {
        "Busy Work Desk"
    } else if layout.has_ultrawide() {
        "Ultrawide Workspace"
    } else if score_of(Category::DeskCleanliness) >= 8 {
        "Minimal Workspace"
    } else {
        "Everyday Desk Setup"
    };
    kind.to_owned()
}

/// From this score on, a category is a strong point.
const STRONG_POINT: Points = Points::whole(7);

fn summary(kind: &str, layout: &Layout, rated: &[(Category, Rated)]) -> String {
    let screens = match (layout.monitors.len(), layout.laptops.len()) {
        (0, 0) => "no screen the detector could box".to_owned(),
        (0, l) => count(l, "laptop"),
        (m, 0) => count(m, "monitor"),
        (m, l) => format!("{} and {}", count(m, "monitor"), count(l, "laptop")),
    };
    let article = capitalised(crate::words::article(kind));
    let mut sentences = vec![format!("{article} {kind} with {screens}.")];
    // Strongest: the highest score (ties in the page's order); weakest: the lowest.
    let strongest = rated.iter().fold(None::<&(Category, Rated)>, |best, r| match best {
        Some(b) if b.1.score >= r.1.score => Some(b),
        _ => Some(r),
    });
    let weakest = rated.iter().fold(None::<&(Category, Rated)>, |worst, r| match worst {
        Some(w) if w.1.score <= r.1.score => Some(w),
        _ => Some(r),
    });
    if let (Some((best, b)), Some((worst, w))) = (strongest, weakest) {
        if b.score == w.score {
            sentences.push(format!("Every category scores {}/10.", b.score));
        } else {
            // Only a score people would call good is a "strong point".
            if b.score >= STRONG_POINT {
                sentences.push(format!("Its strongest point is {best} ({}/10): {}.", b.score, b.headline));
            } else {
                sentences.push(format!(
                    "Nothing stands out yet; the best of it is {best} ({}/10): {}.",
                    b.score, b.headline
                ));
            }
            sentences.push(format!("The weakest is {worst} ({}/10): {}.", w.score, w.headline));
        }
    }
    sentences.join(" ")
}

// ---------------------------------------------------------------------------------------
// Words

/// 0 below `low`, 1 above `high`, linear between.
fn ramp(value: f32, low: f32, high: f32) -> f32 {
    if high <= low {
        f32::from(u8::from(value >= high))
    } else {
        ((value - low) / (high - low)).clamp(0.0, 1.0)
    }
}

/// "1 plant", "3 plants".
fn count(n: usize, noun: &str) -> String {
    if n == 1 { format!("1 {noun}") } else { format!("{n} {}", plural(noun)) }
}

fn plural(noun: &str) -> String {
    match noun {
        "cell phone" => "cell phones".to_owned(),
        "scissors" => "scissors".to_owned(),
        n if n.ends_with("sh") || n.ends_with("ch") || n.ends_with('s') => format!("{n}es"),
        n if n.ends_with('y') && !n.ends_with("ey") => format!("{}ies", &n[..n.len() - 1]),
        n => format!("{n}s"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words() {
        assert_eq!(count(3, "glass"), "3 glasses");
        assert_eq!(count(2, "cell phone"), "2 cell phones");
        assert_eq!(count(1, "plant"), "1 plant");
        assert_eq!(ramp(0.5, 0.0, 1.0), 0.5);
        assert_eq!(ramp(2.0, 0.0, 1.0), 1.0);
        assert_eq!(score(12.0), 10);
        assert_eq!(score(-3.0), 1);
    }

    fn one_monitor() -> Layout {
        Layout {
            monitors: vec![Rect::new(0.3, 0.05, 0.7, 0.3)],
            arrangement: Arrangement::Single,
            laptops: Vec::new(),
            keyboards: Vec::new(),
            mice: Vec::new(),
            seats: Vec::new(),
            faint_chairs: Vec::new(),
            chair_score: 0.0,
            plants: Vec::new(),
            pc_cases: Vec::new(),
            clutter: Vec::new(),
            screens: vec![Rect::new(0.3, 0.05, 0.7, 0.3)],
            desk_front: 0.6,
            aspect: 4.0 / 3.0,
        }
    }

    /// The summary with `best` the strongest score (in half points) and 4 the weakest.
    fn summary_with_best(best: i32) -> String {
        let rated = |score: Points, headline: &str| Rated {
            score,
            evidence: 5,
            whole: 5,
            comment: "Seen.".into(),
            headline: headline.into(),
            claims_absence: false,
        };
        let ratings = [
            (Category::CableManagement, rated(Points::halves(best), "tidy cables")),
            (Category::RgbLighting, rated(Points::whole(4), "plain room light")),
            (Category::DeskCleanliness, rated(Points::halves(11), "a fairly tidy desk")),
        ];
        summary("Everyday Desk Setup", &one_monitor(), &ratings)
    }

    #[test]
    fn a_strong_point_starts_at_7_and_a_half_point_is_quoted_as_it_is() {
        assert!(
            summary_with_best(13).contains(
                "Nothing stands out yet; the best of it is Cable Management (6.5/10): tidy cables."
            ),
            "{}",
            summary_with_best(13)
        );
        assert!(
            summary_with_best(14).contains("Its strongest point is Cable Management (7/10): tidy cables.")
        );
        assert!(summary_with_best(15).contains("Its strongest point is Cable Management (7.5/10)"));
        assert!(summary_with_best(15).contains("The weakest is RGB/Lighting (4/10): plain room light."));
        // The learned judgement's band words follow the half point: 6.5 is middling, 7 high.
        assert_eq!(band(Points::halves(13)), 1);
        assert_eq!(band(Points::whole(7)), 2);
        assert_eq!(band(Points::halves(9)), 0);
    }

    #[test]
    fn a_screen_box_taller_than_a_landscape_screen_is_not_counted_as_one_monitor() {
        // 0.35 x 0.26 of a 4:3 photo: 1.8 wide for 1 high, one 16:9 monitor.
        let wide =
            monitor_setup(&Layout { monitors: vec![Rect::new(0.3, 0.05, 0.65, 0.31)], ..one_monitor() });
        assert!(wide.comment.starts_with("1 monitor"), "{}", wide.comment);
        // Two stacked 16:9 screens boxed as one: 0.3 x 0.45 of the photo, 0.9 wide for 1 high.
        let stacked = Layout { monitors: vec![Rect::new(0.35, 0.05, 0.65, 0.5)], ..one_monitor() };
        let rated = monitor_setup(&stacked);
        assert!(!rated.comment.contains("1 monitor"), "{}", rated.comment);
        assert!(rated.comment.contains("two stacked"), "{}", rated.comment);
        assert_eq!(rated.evidence, wide.evidence, "the learned judgement reads the same evidence score");
    }

    #[test]
    fn an_absence_the_learned_judgement_doubts_is_not_repeated() {
        let tidy = || {
            Rated::new(9.0, "no loose cables visible", &["the desk and the area under it look tidy".into()])
        };
        // The learned judgement sees untidy cabling: the detector most likely missed the cables.
        let (doubted, _) = disagreeing(Category::CableManagement, &tidy().of_absence(), Points::whole(4));
        assert!(
            doubted.starts_with("Compared with setups people have rated, the cabling looks untidy"),
            "{doubted}"
        );
        assert!(!doubted.contains("no loose cables"), "{doubted}");
        // Where the learned judgement is the higher, or the details name what is there, they stay.
        let (higher, _) = disagreeing(
            Category::CableManagement,
            &Rated::new(4.0, "3 loose cables under the desk", &[]),
            Points::whole(8),
        );
        assert!(higher.contains("(3 loose cables under the desk) would score it lower"), "{higher}");
        let (named, _) = disagreeing(Category::CableManagement, &tidy(), Points::whole(4));
        assert!(named.contains("(no loose cables visible"), "{named}");
    }
}
