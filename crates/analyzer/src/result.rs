//! The one result schema every analyzer produces (the embedded rubric, the text lexicon, an
//! OpenAI-compatible provider), and its validation: nothing is saved or charged before
//! [`Assessment::validate`] passed.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// The six rated categories, in the order the results page shows them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, ToSchema)]
pub enum Category {
    #[serde(rename = "Cable Management")]
    CableManagement,
    #[serde(rename = "RGB/Lighting")]
    RgbLighting,
    #[serde(rename = "Desk Cleanliness")]
    DeskCleanliness,
    #[serde(rename = "Monitor Setup")]
    MonitorSetup,
    #[serde(rename = "Chair & Comfort")]
    ChairComfort,
    #[serde(rename = "Aesthetic Vibe")]
    AestheticVibe,
}

impl Category {
    pub const ALL: [Category; 6] = [
        Category::CableManagement,
        Category::RgbLighting,
        Category::DeskCleanliness,
        Category::MonitorSetup,
        Category::ChairComfort,
        Category::AestheticVibe,
    ];

    /// The name users read (and the affiliate catalogue's `analysis_category`).
    pub fn name(self) -> &'static str {
        match self {
            Category::CableManagement => "Cable Management",
            Category::RgbLighting => "RGB/Lighting",
            Category::DeskCleanliness => "Desk Cleanliness",
            Category::MonitorSetup => "Monitor Setup",
            Category::ChairComfort => "Chair & Comfort",
            Category::AestheticVibe => "Aesthetic Vibe",
        }
    }

    /// How much the category weighs in the overall score; the weights sum to 1.
    pub fn weight(self) -> f64 {
        match self {
            Category::MonitorSetup | Category::DeskCleanliness | Category::AestheticVibe => 0.2,
            Category::CableManagement | Category::RgbLighting => 0.15,
            Category::ChairComfort => 0.1,
        }
    }
}

impl std::fmt::Display for Category {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A category score: 1 to 10 in steps of half a point (`6.5/10`), held as a count of half
/// points so that equal scores are equal and ordering is exact. It reads and writes as a JSON
/// number: a whole score as an integer (`7`, as every result saved before half points has it),
/// a half as `6.5`. Reading accepts any number on the half-point grid (`0.5`, `11` read,
/// [`Assessment::validate`] refuses them); a number off the grid (`6.25`) is not a category
/// score and is refused when read. The SetupIQ Score (overall) stays a tenth-point `f64`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Points(i32);

impl Points {
    /// The lowest and highest scores a category can have.
    pub const MIN: Points = Points::whole(1);
    pub const MAX: Points = Points::whole(10);

    /// A whole score: `Points::whole(7)` is 7/10.
    pub const fn whole(points: u8) -> Self {
        Points(points as i32 * 2)
    }

    /// A score from its count of half points: `Points::halves(13)` is 6.5/10.
    pub const fn halves(halves: i32) -> Self {
        Points(halves)
    }

    /// The count of half points (6.5/10 is 13).
    pub const fn count_halves(self) -> i32 {
        self.0
    }

    /// The nearest score on the half-point grid within 1-10: what an analyzer's learned or
    /// mixed judgement shows as. A value exactly between two half points goes up (6.25 is
    /// 6.5, 6.75 is 7); 6.3 is 6.5, 6.2 is 6. Not-a-number is the lowest score.
    pub fn nearest(points: f64) -> Self {
        Self::on_grid(points).clamp(Self::MIN, Self::MAX)
    }

    /// The nearest half point, not clamped (a provider's 11 stays 11, for validation to refuse).
    pub fn on_grid(points: f64) -> Self {
        let halves = (points * 2.0).round();
        // Saturating: the cast maps NaN to 0 and infinities to the ends of i32.
        #[allow(clippy::cast_possible_truncation)]
        Points(halves as i32)
    }

    /// The score as a number: 6.5, 7.0.
    pub fn value(self) -> f64 {
        f64::from(self.0) / 2.0
    }

    /// The score as an `f32`, for the analyzer's arithmetic.
    #[allow(clippy::cast_precision_loss)]
    pub fn as_f32(self) -> f32 {
        self.0 as f32 / 2.0
    }

    /// The nearest whole point (a half goes up: 6.5 is 7), clamped to 0-255.
    pub fn round_whole(self) -> u8 {
        u8::try_from((self.0 + 1).div_euclid(2).clamp(0, 255)).unwrap_or(u8::MAX)
    }

    /// Whether the score is a whole point (7/10 rather than 6.5/10).
    pub const fn is_whole(self) -> bool {
        self.0 % 2 == 0
    }

    /// How far apart two scores are, in points (`6.5` and `8` are 1.5 apart).
    pub fn distance(self, other: Points) -> f64 {
        f64::from(self.0.abs_diff(other.0)) / 2.0
    }

    /// Whether the score is within 1-10.
    pub fn in_range(self) -> bool {
        (Self::MIN..=Self::MAX).contains(&self)
    }
}

/// `7` for a whole score, `6.5` for a half: never `7.0`.
impl std::fmt::Display for Points {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let whole = self.0.div_euclid(2);
        if self.is_whole() { write!(f, "{whole}") } else { write!(f, "{whole}.5") }
    }
}

impl From<u8> for Points {
    fn from(points: u8) -> Self {
        Points::whole(points)
    }
}

impl Serialize for Points {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if self.is_whole() {
            serializer.serialize_i64(i64::from(self.0 / 2))
        } else {
            serializer.serialize_f64(self.value())
        }
    }
}

impl<'de> Deserialize<'de> for Points {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let points = f64::deserialize(deserializer)?;
        let on_grid = Points::on_grid(points);
        if !points.is_finite() || on_grid.value() != points {
            return Err(serde::de::Error::custom(format!(
                "a category score is a number from 1 to 10 in steps of 0.5, not {points}"
            )));
        }
        Ok(on_grid)
    }
}

/// One category's score (1-10) and what the analyzer saw that led to it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CategoryScore {
    pub category: Category,
    /// 1 to 10 in half points, or `None` (JSON `null`) when the photo or description doesn't show the
    /// category at all ("unseen": no chair in view): shown as `-/10` and left out of the
    /// overall score. Results saved before unseen categories existed always have a number.
    #[schema(value_type = Option<f64>, minimum = 1, maximum = 10, multiple_of = 0.5)]
    pub score: Option<Points>,
    /// What was seen, e.g. "2 monitors at the same height"; for an unseen category, why it
    /// can't be judged ("No chair in view: comfort can't be judged from this photo.").
    pub comment: String,
    /// How much the score can be trusted, when the analyzer can tell (absent from a
    /// provider's answers and from results saved before it existed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub confidence: Option<Confidence>,
}

/// How firmly a category's score rests on what the photo or description shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Confidence {
    /// The evidence and the learned judgement agree.
    High,
    /// They disagree somewhat, or the evidence is partial.
    Medium,
    /// Little to go on: e.g. no chair in the photo, or a description that doesn't mention it.
    Low,
}

/// Whether any cables were found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum CableInventoryKind {
    None,
    CablesFound,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum CableType {
    Monitor,
    Keyboard,
    Mouse,
    Power,
    Audio,
    Headphone,
    Other,
}

/// One cable (or bundle) and where it runs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Cable {
    pub cable_type: CableType,
    /// Rough location, e.g. "under the desk, left side".
    pub location: String,
    /// Whether it is routed or sleeved so that it adds to the look rather than spoiling it.
    pub is_aesthetic: bool,
    pub description: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CableInventory {
    #[serde(rename = "type")]
    pub kind: CableInventoryKind,
    pub cables: Vec<Cable>,
    pub total_count: u32,
}

impl CableInventory {
    pub fn none() -> Self {
        Self { kind: CableInventoryKind::None, cables: Vec::new(), total_count: 0 }
    }

    pub fn of(cables: Vec<Cable>) -> Self {
        let kind = if cables.is_empty() { CableInventoryKind::None } else { CableInventoryKind::CablesFound };
        let total_count = u32::try_from(cables.len()).unwrap_or(u32::MAX);
        Self { kind, cables, total_count }
    }
}

impl CategoryScore {
    /// Whether the category could not be judged from the input at all.
    pub fn is_unseen(&self) -> bool {
        self.score.is_none()
    }
}

/// What a result was made from: its wording follows ("in view" for a photo, "you describe"
/// for a description).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Source {
    Photo,
    Description,
}

/// What an analyzer concluded about one setup, before recommendations are attached.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Assessment {
    /// The SetupIQ Score, 0 to 10 with one decimal.
    pub overall_score: f64,
    /// Two or three sentences on the setup as a whole.
    pub summary: String,
    /// What kind of setup this is, e.g. "RGB Gaming Battlestation" or "Minimal Workspace".
    pub category: String,
    /// Exactly one score for each of the six categories.
    pub category_ratings: Vec<CategoryScore>,
    pub cable_inventory: CableInventory,
    /// The facts behind the comments, for suggestions to reason about; absent from a
    /// provider's answers and from results saved before it existed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seen: Option<Seen>,
    /// Whether a photo or a description was rated, set by the analyzer (a provider's answer
    /// doesn't carry it; results saved before it existed are given it from their saved
    /// input type when read).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<Source>,
}

/// What the analyzer saw, as facts rather than sentences: suggestions pick and justify
/// products with them ("your two monitors sit at different heights"). No score reads them.
/// A fact the analyzer can't tell is `None` (or `false`, `empty`): a photo doesn't show
/// whether monitors hang on arms, a description may not say how many plants there are.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(default, rename_all = "camelCase")]
pub struct Seen {
    /// Monitors, laptops not counted.
    pub monitors: Option<u8>,
    pub laptops: Option<u8>,
    /// Two or more monitors whose top edges don't line up.
    pub uneven_monitors: bool,
    /// Two monitors, one above the other.
    pub stacked_monitors: bool,
    /// The monitors hang on arms or a wall mount.
    pub on_arms: bool,
    /// Loose (not routed or sleeved) cables, and where most of them run.
    pub loose_cables: Option<u32>,
    pub cables_mostly: Option<CablePlace>,
    pub seat: Option<Seat>,
    pub dark_room: bool,
    pub light: Option<Light>,
    /// The coloured light's main colours, main first: "purple", "cyan".
    pub light_colours: Vec<String>,
    /// At least this many plants.
    pub plants: Option<u8>,
    /// Leafy green in view (plants the detector didn't box, a view of trees).
    pub greenery: bool,
    /// The loose items on the desk by kind, most first: "3 cups", "1 book".
    pub clutter: Vec<String>,
    /// Small items or papers cover part of the desk surface.
    pub busy_desk: bool,
}

/// Where loose cables run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum CablePlace {
    UnderDesk,
    BehindMonitor,
    OnDesk,
}

/// What the user sits on at the desk.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Seat {
    /// No seat in view.
    Nothing,
    /// A couch or armchair rather than a desk chair.
    Couch,
    DeskChair,
    GamingChair,
}

/// The room's coloured lighting.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Light {
    /// None to speak of: white light, daylight or a dim room.
    White,
    /// A touch of coloured light.
    Accent,
    /// Saturated RGB light sets the room's colour.
    Neon,
}

/// Why a result was not accepted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid analysis result: {0}")]
pub struct InvalidResult(pub String);

/// Longest accepted summary, comment and description (characters).
const MAX_TEXT: usize = 1000;
/// Most cables an inventory may list.
const MAX_CABLES: usize = 40;
/// Most categories a result may leave unseen.
const MAX_UNSEEN: usize = 2;

/// Whether `category` may be unseen. A setup photo (screened: desk gear at a workplace) always
/// shows cables or their absence, some light, the desk surface and a look, so only the chair
/// and the screens can be out of frame; a description that never mentions a chair leaves it
/// unseen too. Everything else always gets a number.
pub fn may_be_unseen(category: Category) -> bool {
    matches!(category, Category::MonitorSetup | Category::ChairComfort)
}

impl Assessment {
    /// Checks the result schema: score ranges, the six categories once each (at most
    /// [`MAX_UNSEEN`] of them unseen, and only those that [`may_be_unseen`]), non-empty and
    /// bounded texts, a consistent cable inventory.
    pub fn validate(&self) -> Result<(), InvalidResult> {
        let fail = |why: String| Err(InvalidResult(why));
        if !self.overall_score.is_finite() || !(0.0..=10.0).contains(&self.overall_score) {
            return fail(format!("overall score {} is outside 0-10", self.overall_score));
        }
        check_text("summary", &self.summary)?;
        check_text("category", &self.category)?;
        if self.category_ratings.len() != Category::ALL.len() {
            return fail(format!("{} category ratings instead of 6", self.category_ratings.len()));
        }
        for category in Category::ALL {
            let found: Vec<_> = self.category_ratings.iter().filter(|r| r.category == category).collect();
            let [rating] = found.as_slice() else {
                return fail(format!("{category} is rated {} times", found.len()));
            };
            match rating.score {
                Some(score) if !score.in_range() => {
                    return fail(format!("{category} score {score} is outside 1-10"));
                }
                None if !may_be_unseen(category) => {
                    return fail(format!("{category} has no score: it can always be judged"));
                }
                _ => {}
            }
            check_text(category.name(), &rating.comment)?;
        }
        let unseen = self.category_ratings.iter().filter(|r| r.is_unseen()).count();
        if unseen > MAX_UNSEEN {
            return fail(format!("{unseen} categories without a score (at most {MAX_UNSEEN})"));
        }
        let inventory = &self.cable_inventory;
        if inventory.cables.len() > MAX_CABLES {
            return fail(format!("{} cables listed", inventory.cables.len()));
        }
        let listed = u32::try_from(inventory.cables.len()).unwrap_or(u32::MAX);
        if inventory.total_count < listed {
            return fail(format!("total count {} below the {listed} cables listed", inventory.total_count));
        }
        if (inventory.kind == CableInventoryKind::None) != (inventory.total_count == 0) {
            return fail("cable inventory type disagrees with its count".to_owned());
        }
        for cable in &inventory.cables {
            check_text("cable location", &cable.location)?;
            check_text("cable description", &cable.description)?;
        }
        Ok(())
    }

    /// The score of one category (the validated result has each exactly once); `None` when
    /// it is unseen.
    pub fn score_of(&self, category: Category) -> Option<Points> {
        self.category_ratings.iter().find(|r| r.category == category).and_then(|r| r.score)
    }

    /// The seen categories from weakest to strongest (ties in the page's order); an unseen
    /// one is neither weak nor strong.
    pub fn weakest_first(&self) -> Vec<&CategoryScore> {
        let mut ratings: Vec<_> = self.category_ratings.iter().filter(|r| !r.is_unseen()).collect();
        ratings.sort_by_key(|r| (r.score, r.category));
        ratings
    }

    /// Whether the result was made from a description (`false` for a photo, and for a result
    /// that doesn't say).
    pub fn is_described(&self) -> bool {
        self.source == Some(Source::Description)
    }
}

fn check_text(field: &str, text: &str) -> Result<(), InvalidResult> {
    let length = text.trim().chars().count();
    if length == 0 {
        Err(InvalidResult(format!("{field} is empty")))
    } else if length > MAX_TEXT {
        Err(InvalidResult(format!("{field} is longer than {MAX_TEXT} characters")))
    } else {
        Ok(())
    }
}

/// The SetupIQ Score from the category scores: the weighted mean of the seen ones, one
/// decimal. An unseen category is left out and the others' weights are renormalised over
/// what is left (one seen category alone is its own score).
pub fn overall_score(ratings: &[CategoryScore]) -> f64 {
    let seen = ratings.iter().filter_map(|r| r.score.map(|score| (score.value(), r.category.weight())));
    let (total, weights) =
        seen.fold((0.0, 0.0), |(total, weights), (score, weight)| (total + score * weight, weights + weight));
    if weights == 0.0 { 0.0 } else { round1(total / weights) }
}

/// Rounds to one decimal (scores are shown and stored that way).
pub fn round1(value: f64) -> f64 {
    (value * 10.0).round() / 10.0
}

/// The percentile text of a score (spec 000 §4, rating bands).
pub fn percentile_text(score: f64) -> &'static str {
    match score {
        s if s >= 9.0 => "Top 5%",
        s if s >= 8.0 => "Top 15%",
        s if s >= 7.0 => "Top 30%",
        s if s >= 6.0 => "Top 50%",
        s if s >= 5.0 => "Top 65%",
        _ => "Bottom 35%",
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn sample() -> Assessment {
        let category_ratings: Vec<_> = Category::ALL
            .iter()
            .map(|&category| CategoryScore {
                category,
                score: Some(Points::whole(6)),
                comment: "seen".into(),
                confidence: None,
            })
            .collect();
        Assessment {
            overall_score: overall_score(&category_ratings),
            summary: "A desk.".into(),
            category: "Workspace".into(),
            category_ratings,
            cable_inventory: CableInventory::none(),
            seen: None,
            source: None,
        }
    }

    #[test]
    fn a_complete_result_passes() {
        let result = sample();
        assert_eq!(result.overall_score, 6.0);
        result.validate().unwrap();
    }

    #[test]
    fn broken_results_are_refused() {
        let mut missing = sample();
        missing.category_ratings.pop();
        assert!(missing.validate().is_err());

        let mut twice = sample();
        twice.category_ratings[5].category = Category::CableManagement;
        assert!(twice.validate().unwrap_err().0.contains("Cable Management is rated 2 times"));

        let mut zero = sample();
        zero.category_ratings[0].score = Some(Points::whole(0));
        assert!(zero.validate().is_err());

        for overall in [-0.1, 10.1, f64::NAN] {
            let mut out_of_range = sample();
            out_of_range.overall_score = overall;
            assert!(out_of_range.validate().is_err(), "{overall}");
        }

        let mut eleven = sample();
        eleven.category_ratings[4].score = Some(Points::whole(11));
        assert!(eleven.validate().unwrap_err().0.contains("Chair & Comfort score 11 is outside 1-10"));

        // Half a point past either end is out of range too.
        for (halves, said) in [(1, "0.5"), (21, "10.5")] {
            let mut out = sample();
            out.category_ratings[0].score = Some(Points::halves(halves));
            let why = out.validate().unwrap_err().0;
            assert_eq!(why, format!("Cable Management score {said} is outside 1-10"));
        }

        let mut silent = sample();
        silent.category_ratings[2].comment = "  ".into();
        assert!(silent.validate().is_err());

        let mut lying = sample();
        lying.cable_inventory.total_count = 3;
        assert!(lying.validate().is_err());
    }

    #[test]
    fn weights_sum_to_one_and_the_overall_is_their_mean() {
        let sum: f64 = Category::ALL.iter().map(|c| c.weight()).sum();
        assert!((sum - 1.0).abs() < 1e-9);
        let mut result = sample();
        result.category_ratings[3].score = Some(Points::whole(10)); // Monitor Setup, weight 0.2
        assert_eq!(overall_score(&result.category_ratings), 6.8);
    }

    #[test]
    fn an_unseen_category_is_left_out_of_the_overall_and_the_weights_renormalised() {
        let mut result = sample();
        result.category_ratings[3].score = Some(Points::whole(10)); // Monitor Setup, weight 0.2
        result.category_ratings[4].score = None; // Chair & Comfort, weight 0.1, unseen
        // (0.15*6 + 0.15*6 + 0.2*6 + 0.2*10 + 0.2*6) / 0.9 = 6.2/0.9 = 6.89
        assert_eq!(overall_score(&result.category_ratings), 6.9);
        // A neutral 5 for the chair would have dragged it down; no chair at all doesn't.
        let mut neutral = result.clone();
        neutral.category_ratings[4].score = Some(Points::whole(5));
        assert_eq!(overall_score(&neutral.category_ratings), 6.7);
        // Chair and screens unseen: the mean of the four others.
        result.category_ratings[3].score = None;
        result.category_ratings[0].score = Some(Points::whole(2)); // Cable Management, weight 0.15
        // (0.15*2 + 0.15*6 + 0.2*6 + 0.2*6) / 0.7 = 3.6/0.7 = 5.14
        assert_eq!(overall_score(&result.category_ratings), 5.1);
        // One seen category alone is its own score; none at all is 0.
        let one: Vec<_> =
            result.category_ratings.iter().filter(|r| r.category == Category::RgbLighting).cloned().collect();
        assert_eq!(overall_score(&one), 6.0);
        let none: Vec<_> = one.into_iter().map(|r| CategoryScore { score: None, ..r }).collect();
        assert_eq!(overall_score(&none), 0.0);
    }

    #[test]
    fn unseen_scores_are_accepted_only_where_a_photo_can_miss_them() {
        let mut chair = sample();
        chair.category_ratings[4].score = None;
        chair.category_ratings[4].confidence = Some(Confidence::Low);
        chair.overall_score = overall_score(&chair.category_ratings);
        chair.validate().unwrap();
        assert_eq!(chair.score_of(Category::ChairComfort), None);
        assert!(chair.weakest_first().iter().all(|r| r.category != Category::ChairComfort));

        let mut both = chair.clone();
        both.category_ratings[3].score = None;
        both.validate().unwrap();

        // Cables, light, the desk and the look are in every setup photo.
        for i in [0, 1, 2, 5] {
            let mut unseen = sample();
            unseen.category_ratings[i].score = None;
            let why = unseen.validate().unwrap_err().0;
            assert!(why.contains("has no score"), "{why}");
        }
        // At most two unseen, whatever they are.
        let mut three = both.clone();
        three.category_ratings[0].score = None;
        assert!(three.validate().is_err());
    }

    #[test]
    fn an_unseen_score_is_json_null_and_old_results_with_numbers_still_read() {
        let mut chair = sample();
        chair.category_ratings[4].score = None;
        let json = serde_json::to_value(&chair).unwrap();
        assert_eq!(json["categoryRatings"][4]["score"], serde_json::Value::Null);
        assert_eq!(json["categoryRatings"][0]["score"], 6);
        assert_eq!(serde_json::from_value::<Assessment>(json).unwrap(), chair);
        // A result saved before unseen categories (and sources) existed.
        let old = serde_json::json!({
            "overallScore": 5.9,
            "summary": "A desk.",
            "category": "Workspace",
            "categoryRatings": Category::ALL.iter().map(|c| serde_json::json!({
                "category": c.name(), "score": 5, "comment": "No chair is visible in the photo.", "confidence": "low",
            })).collect::<Vec<_>>(),
            "cableInventory": {"type": "none", "cables": [], "totalCount": 0},
        });
        let read: Assessment = serde_json::from_value(old).unwrap();
        assert_eq!(read.score_of(Category::ChairComfort), Some(Points::whole(5)));
        assert_eq!(read.source, None);
        assert!(!read.is_described());
        read.validate().unwrap();
    }

    #[test]
    fn a_half_point_result_round_trips_and_validates() {
        let mut result = sample();
        result.category_ratings[0].score = Some(Points::halves(13)); // Cable Management 6.5
        result.category_ratings[3].score = Some(Points::whole(7)); // Monitor Setup
        result.overall_score = overall_score(&result.category_ratings);
        // (0.15*6.5 + 0.15*6 + 0.2*6 + 0.2*7 + 0.1*6 + 0.2*6) / 1 = 6.275
        assert_eq!(result.overall_score, 6.3);
        result.validate().unwrap();
        let json = serde_json::to_string(&result).unwrap();
        assert!(json.contains(r#""score":6.5"#), "{json}");
        assert!(json.contains(r#""score":7,"#), "a whole score is written without a decimal: {json}");
        let read: Assessment = serde_json::from_str(&json).unwrap();
        assert_eq!(read, result);
        read.validate().unwrap();
        assert_eq!(read.score_of(Category::CableManagement).unwrap().to_string(), "6.5");
        assert_eq!(read.score_of(Category::MonitorSetup).unwrap().to_string(), "7");
        // Weakest first orders by the half point: 6 before 6.5 before 7.
        let order: Vec<_> = read.weakest_first().iter().map(|r| r.category).collect();
        assert_eq!(order[4..], [Category::CableManagement, Category::MonitorSetup]);
    }

    #[test]
    fn scores_off_the_half_point_grid_or_out_of_range_are_refused() {
        let with_score = |score: serde_json::Value| {
            let mut json = serde_json::to_value(sample()).unwrap();
            json["categoryRatings"][0]["score"] = score;
            json
        };
        // 6.25 is no category score: the result does not read at all, saying why.
        let why = serde_json::from_value::<Assessment>(with_score(serde_json::json!(6.25))).unwrap_err();
        assert!(why.to_string().contains("from 1 to 10 in steps of 0.5, not 6.25"), "{why}");
        // 0.5 and 10.5 are on the grid but out of range: read, then refused by validation.
        for (score, said) in [(0.5, "0.5"), (10.5, "10.5"), (0.0, "0"), (11.0, "11")] {
            let read: Assessment = serde_json::from_value(with_score(serde_json::json!(score))).unwrap();
            let why = read.validate().unwrap_err();
            assert_eq!(why.0, format!("Cable Management score {said} is outside 1-10"));
        }
        // Any JSON number on the grid reads, written as an integer or not.
        for score in [serde_json::json!(7), serde_json::json!(7.0), serde_json::json!(6.5)] {
            let read: Assessment = serde_json::from_value(with_score(score.clone())).unwrap();
            read.validate().unwrap();
            assert_eq!(read.score_of(Category::CableManagement).unwrap().value(), score.as_f64().unwrap());
        }
    }

    #[test]
    fn learned_scores_round_to_the_nearest_half_point_a_quarter_going_up() {
        let nearest = |points: f64| Points::nearest(points).value();
        assert_eq!(nearest(6.3), 6.5);
        assert_eq!(nearest(6.2), 6.0);
        assert_eq!(nearest(6.75), 7.0);
        assert_eq!(nearest(6.25), 6.5);
        assert_eq!(nearest(6.74), 6.5);
        assert_eq!(nearest(0.2), 1.0);
        assert_eq!(nearest(12.0), 10.0);
        assert_eq!(nearest(f64::NAN), 1.0);
        assert_eq!(Points::halves(13).to_string(), "6.5");
        assert_eq!(Points::whole(7).to_string(), "7");
        assert_eq!(Points::halves(13).distance(Points::whole(8)), 1.5);
        assert_eq!(Points::halves(13).round_whole(), 7);
    }

    #[test]
    fn categories_serialise_as_the_names_users_read() {
        for category in Category::ALL {
            assert_eq!(serde_json::to_value(category).unwrap(), category.name());
        }
    }

    #[test]
    fn results_saved_without_facts_still_read_and_facts_are_left_out_when_there_are_none() {
        let without = sample();
        let json = serde_json::to_value(&without).unwrap();
        assert!(json.get("seen").is_none(), "{json}");
        assert_eq!(serde_json::from_value::<Assessment>(json).unwrap(), without);

        let seen =
            Seen { monitors: Some(2), uneven_monitors: true, light: Some(Light::Neon), ..Seen::default() };
        let with = Assessment { seen: Some(seen), ..sample() };
        let json = serde_json::to_value(&with).unwrap();
        assert_eq!(json["seen"]["unevenMonitors"], true);
        assert_eq!(json["seen"]["light"], "neon");
        assert_eq!(serde_json::from_value::<Assessment>(json).unwrap(), with);
        // A fact added later is unknown in what was saved before it.
        let partial: Seen = serde_json::from_value(serde_json::json!({"monitors": 1})).unwrap();
        assert_eq!(partial, Seen { monitors: Some(1), ..Seen::default() });
    }

    #[test]
    fn percentile_bands() {
        let table = [
            (9.0, "Top 5%"),
            (8.9, "Top 15%"),
            (7.0, "Top 30%"),
            (6.5, "Top 50%"),
            (5.0, "Top 65%"),
            (4.9, "Bottom 35%"),
            (0.0, "Bottom 35%"),
        ];
        for (score, text) in table {
            assert_eq!(percentile_text(score), text, "{score}");
        }
    }
}
