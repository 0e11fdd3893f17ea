//! Upgrade suggestions from the affiliate catalogue: the weakest categories first, each
//! with a product per tier (budget / balanced / premium), the one of the three that gains the
//! most score per dollar recommended. Only what was seen is pitched: a category without a
//! score (no chair in the photo, none in the description) never gets a suggestion.
//!
//! The order is the scores' order: the weakest category always leads (even one rated with
//! low confidence, whose suggestion then says what would let it be judged firmly), and a
//! stronger category is never pitched ahead of a weaker one; at an equal score the firmly
//! rated goes first.
//!
//! A card reads as one text: the description says what was seen ("5/10. Your two monitors
//! sit at different heights."), each product what it changes ("A dual monitor arm levels
//! them…"), and no sentence is said twice on one card (a second product of the same kind
//! speaks with its catalogue text). A description's facts are worded as what the owner
//! describes ("you describe no loose cables"), never as what is in view: there is no photo.
//!
//! Within a tier, the product is chosen by what the analyzer saw ([`Seen`]): two monitors at
//! different heights get a dual arm, a laptop alone a laptop stand, a neon-lit room never a
//! plant set. Without facts (a provider's answer, a result saved before them) the tier's
//! best-rated product is shown with its catalogue text.

use serde::{Deserialize, Serialize};
use setupiq_affiliate::service::{self as affiliate, ChairStyle, Product, ProductKind, Recommendation, Tier};
use setupiq_core::money::format_price;
use setupiq_db::DbConnection;
use utoipa::ToSchema;

use crate::error::AnalysisError;
use setupiq_analyzer::result::{
    Assessment, CablePlace, Category, CategoryScore, Confidence, Light, Points, Seat, Seen,
};
use setupiq_analyzer::words::{article, capitalised, join};

/// At most this many suggestions per analysis.
pub const MAX_SUGGESTIONS: usize = 3;
/// Categories scoring this or more need no upgrade.
const GOOD_ENOUGH: Points = Points::whole(9);
/// Points a product of each tier is expected to add to its category's score: a budget fix
/// helps a little, a premium one changes the picture (capped at 10).
const GAIN_BUDGET: u8 = 1;
const GAIN_BALANCED: u8 = 2;
const GAIN_PREMIUM: u8 = 3;

/// One catalogue product as a suggestion shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProductRecommendation {
    /// The catalogue id, sent back with click tracking.
    pub product_id: i64,
    pub name: String,
    /// The affiliate link.
    pub link: String,
    /// The price as shown, e.g. "$49.99".
    pub price: String,
    pub price_cents: i64,
    pub tier: Tier,
    /// Why this product helps.
    pub justification: String,
}

impl ProductRecommendation {
    fn new(p: &Product, justification: String) -> Self {
        Self {
            product_id: p.id.0,
            name: p.name.clone(),
            link: p.link.clone(),
            price: format_price(p.price_cents),
            price_cents: p.price_cents,
            tier: p.tier,
            justification,
        }
    }
}

/// The three tiers of one category; a tier the catalogue has no active product for is `null`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ProductTiers {
    pub budget: Option<ProductRecommendation>,
    pub balanced: Option<ProductRecommendation>,
    pub premium: Option<ProductRecommendation>,
}

/// An upgrade suggestion for one weak category.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Suggestion {
    pub category: Category,
    pub title: String,
    pub description: String,
    /// The tier that gains the most score per dollar; `null` when the catalogue has no active
    /// product for this category (the suggestion still says what to improve).
    pub product_recommendation: Option<ProductRecommendation>,
    pub tiers: ProductTiers,
}

/// Suggestions for `assessment`, weakest category first.
pub fn suggest(conn: &mut DbConnection, assessment: &Assessment) -> Result<Vec<Suggestion>, AnalysisError> {
    let seen = assessment.seen.as_ref();
    let described = assessment.is_described();
    let chair_style = if seen.and_then(|s| s.seat) == Some(Seat::GamingChair)
        || assessment.category.to_lowercase().contains("gaming")
        || assessment.score_of(Category::RgbLighting).is_some_and(|s| s >= Points::whole(7))
    {
        ChairStyle::Gaming
    } else {
        ChairStyle::Ergonomic
    };
    let mut suggestions = Vec::new();
    for (rating, score) in candidates(assessment) {
        let catalogue = affiliate::recommend(conn, rating.category.name(), Some(chair_style))?;
        suggestions.push(suggestion(rating, score, Facts { seen, described }, &catalogue));
    }
    Ok(suggestions)
}

/// What the analyzer saw, if it says, and whether it read a description rather than a photo.
#[derive(Debug, Clone, Copy)]
struct Facts<'a> {
    seen: Option<&'a Seen>,
    described: bool,
}

/// The suggestion for one weak category (rated `score`).
fn suggestion(
    rating: &CategoryScore,
    score: Points,
    facts: Facts<'_>,
    catalogue: &Recommendation,
) -> Suggestion {
    let category = rating.category;
    let seen = facts.seen;
    let wanted = seen.map(|seen| Wanted::by(category, seen)).unwrap_or_default();
    let evidence = seen.and_then(|seen| evidence(category, seen, facts.described));
    // Each tier's pick, what it is said to change, and its score per dollar.
    let pick = |tier: Tier, gain: u8| {
        let product = wanted.pick(catalogue.tier(tier))?;
        let said = match (product.kind, seen) {
            (Some(kind), Some(seen)) if evidence.is_some() => {
                format!("{}.", capitalised(effect(kind, category, seen)))
            }
            _ => product.justification.clone(),
        };
        Some((product, said, value_per_dollar(category, score, gain, product.price_cents)))
    };
    let tiers = [(Tier::Budget, GAIN_BUDGET), (Tier::Balanced, GAIN_BALANCED), (Tier::Premium, GAIN_PREMIUM)]
        .map(|(tier, gain)| pick(tier, gain));
    // The best value; on a tie the cheaper tier.
    let best = tiers
        .iter()
        .enumerate()
        .filter_map(|(at, tier)| tier.as_ref().map(|(_, _, value)| (at, *value)))
        .fold(None, |best: Option<(usize, f64)>, next| match best {
            Some(best) if best.1 >= next.1 => Some(best),
            _ => Some(next),
        })
        .map(|(at, _)| at);

    // What was seen, or the analyzer's comment; what a product changes is the product's to say.
    let mut description = match &evidence {
        Some(evidence) => format!("{score}/10. {}.", capitalised(evidence)),
        None => format!("{score}/10: {}.", rating.comment.trim_end_matches('.')),
    };
    if is_unsure(rating) {
        description = format!("{description} A rough call: {}", to_judge_firmly(category, facts.described));
    }

    // Each sentence once on the card: the description, the recommended pick, then the other
    // tiers; a product whose sentence is already there speaks with its catalogue text.
    let mut said_already: Vec<String> = sentences(&description);
    let mut shown: [Option<ProductRecommendation>; 3] = [None, None, None];
    for at in best.into_iter().chain((0..3).filter(|&at| Some(at) != best)) {
        let Some((product, said, _)) = &tiers[at] else { continue };
        let own = sentences(said);
        let said = if own.iter().any(|s| said_already.contains(s)) {
            product.justification.clone()
        } else {
            said.clone()
        };
        said_already.extend(sentences(&said));
        shown[at] = Some(ProductRecommendation::new(product, said));
    }
    let [budget, balanced, premium] = shown;
    Suggestion {
        category,
        title: title(category).to_owned(),
        description,
        product_recommendation: best.and_then(|at| [&budget, &balanced, &premium][at].clone()),
        tiers: ProductTiers { budget, balanced, premium },
    }
}

/// The sentences of `text`, trimmed.
fn sentences(text: &str) -> Vec<String> {
    text.split_inclusive(['.', '!', '?'])
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect()
}

/// What would let a category rated with low confidence be judged firmly.
fn to_judge_firmly(category: Category, described: bool) -> &'static str {
    match (category, described) {
        (Category::CableManagement, false) => {
            "the cables were hard to see; a photo that shows behind and under the desk would settle it."
        }
        (Category::CableManagement, true) => {
            "say how your cables are run (hidden, tied, loose) to get a firm score."
        }
        (Category::RgbLighting, false) => {
            "the light was hard to read; a photo with the lights on as you use them would settle it."
        }
        (Category::RgbLighting, true) => "say what lighting the room has to get a firm score.",
        (Category::DeskCleanliness, false) => {
            "the desk surface was hard to see; a photo of the whole desk from the front would settle it."
        }
        (Category::DeskCleanliness, true) => "say what sits on your desk to get a firm score.",
        (Category::MonitorSetup, false) => {
            "the screens were hard to make out; a photo from behind the chair would settle it."
        }
        (Category::MonitorSetup, true) => {
            "say how many screens you use and how they are mounted to get a firm score."
        }
        (Category::ChairComfort, false) => {
            "the chair was hard to see; a photo that includes your chair would settle it."
        }
        (Category::ChairComfort, true) => "say what you sit on to get a firm score.",
        (Category::AestheticVibe, false) => {
            "the look was hard to judge; a brighter photo of the whole setup would settle it."
        }
        (Category::AestheticVibe, true) => "describe the style and decor to get a firm score.",
    }
}

/// The kinds of product that fit what was seen, best first, and those that don't fit at all.
#[derive(Debug, Default)]
struct Wanted {
    prefer: Vec<ProductKind>,
    avoid: Vec<ProductKind>,
}

impl Wanted {
    fn by(category: Category, seen: &Seen) -> Wanted {
        use ProductKind as K;
        let monitors = seen.monitors.unwrap_or(0);
        let laptop = seen.laptops.is_some_and(|n| n > 0);
        let neon = seen.light == Some(Light::Neon);
        let has_plants = seen.plants.is_some_and(|n| n > 0) || seen.greenery;
        let (prefer, avoid) = match category {
            Category::MonitorSetup => {
                let prefer = match (monitors, laptop) {
                    (0, true) => vec![K::LaptopStand, K::Monitor, K::ScreenBar],
                    (2.., _) if seen.uneven_monitors => vec![K::DualArm, K::MonitorArm, K::ScreenBar],
                    (2.., _) if seen.on_arms => vec![K::ScreenBar, K::Monitor],
                    (2.., _) => vec![K::DualArm, K::ScreenBar, K::Monitor],
                    (1, true) => vec![K::LaptopStand, K::MonitorArm, K::ScreenBar],
                    _ if seen.on_arms => vec![K::Monitor, K::ScreenBar],
                    _ => vec![K::MonitorArm, K::Monitor, K::ScreenBar],
                };
                let mut avoid = Vec::new();
                if seen.monitors.is_some() && monitors < 2 {
                    avoid.push(K::DualArm);
                }
                if seen.laptops == Some(0) {
                    avoid.push(K::LaptopStand);
                }
                if seen.on_arms {
                    avoid.extend([K::MonitorArm, K::DualArm]);
                }
                (prefer, avoid)
            }
            Category::RgbLighting => match seen.light {
                // More of the same adds nothing: a neutral light to work by does.
                Some(Light::Neon) => {
                    (vec![K::ScreenBar, K::WarmLamp], vec![K::LedStrip, K::NeonSign, K::LightBars])
                }
                Some(Light::Accent) => (vec![K::LightPanels, K::LightBars, K::NeonSign, K::LedStrip], vec![]),
                Some(Light::White) if seen.dark_room => {
                    (vec![K::LedStrip, K::LightBars, K::ScreenBar], vec![])
                }
                Some(Light::White) => (vec![K::LedStrip, K::LightPanels, K::LightBars], vec![]),
                None => (vec![], vec![]),
            },
            Category::DeskCleanliness => {
                if !seen.clutter.is_empty() {
                    (vec![K::DeskOrganiser, K::DrawerUnit, K::StorageRiser, K::Pegboard], vec![K::DeskMat])
                } else if seen.busy_desk {
                    (vec![K::DrawerUnit, K::DeskOrganiser, K::Pegboard, K::StorageRiser], vec![K::DeskMat])
                } else {
                    (vec![K::DeskMat, K::HeadphoneHook], vec![])
                }
            }
            Category::CableManagement => {
                let prefer = match seen.cables_mostly {
                    Some(CablePlace::UnderDesk) => {
                        vec![K::CableTray, K::CableSpine, K::CableRaceway, K::CableTies, K::CableKit]
                    }
                    Some(CablePlace::BehindMonitor) => {
                        vec![K::CableSleeve, K::CableSpine, K::CableTies, K::CableKit]
                    }
                    Some(CablePlace::OnDesk) => {
                        vec![K::CableClips, K::CableRaceway, K::CableTies, K::CableKit]
                    }
                    None => vec![K::CableKit, K::CableTray, K::CableTies],
                };
                (prefer, vec![])
            }
            Category::ChairComfort => match seen.seat {
                // A chair is there: support in it before a new one.
                Some(Seat::DeskChair | Seat::GamingChair) => (vec![K::LumbarCushion, K::Footrest], vec![]),
                Some(Seat::Couch | Seat::Nothing) => {
                    (vec![K::ErgonomicChair, K::GamingChair], vec![K::LumbarCushion, K::Footrest])
                }
                None => (vec![], vec![]),
            },
            Category::AestheticVibe => {
                if neon {
                    (vec![K::WallPanels, K::WallShelf, K::DeskShelf, K::DeskMat], vec![K::PlantSet])
                } else if has_plants {
                    (vec![K::WallShelf, K::DeskShelf, K::DeskMat], vec![K::PlantSet])
                } else if !seen.clutter.is_empty() || seen.busy_desk {
                    (vec![K::DeskMat, K::DeskShelf, K::PlantSet], vec![])
                } else {
                    (vec![K::PlantSet, K::AmbientLamp, K::DeskShelf], vec![])
                }
            }
        };
        Wanted { prefer, avoid }
    }

    /// The product of `tier` (best-rated first) that fits best: the most preferred kind, else
    /// the best-rated that isn't avoided, else the best-rated.
    /// The tier's product that fits best; `None` only for an empty tier.
    fn pick<'a>(&self, tier: &'a [Product]) -> Option<&'a Product> {
        let preferred = self.prefer.iter().find_map(|kind| tier.iter().find(|p| p.kind == Some(*kind)));
        let acceptable = || tier.iter().find(|p| p.kind.is_none_or(|k| !self.avoid.contains(&k)));
        preferred.or_else(acceptable).or_else(|| tier.first())
    }
}

/// What was seen in `category`, as the first half of a justification ("your two monitors sit
/// at different heights"); `None` when the facts don't say. `described`: the facts come from
/// a description, so they are what the owner describes, not what is in view.
fn evidence(category: Category, seen: &Seen, described: bool) -> Option<String> {
    let laptop = seen.laptops.is_some_and(|n| n > 0);
    let colours =
        if seen.light_colours.is_empty() { "coloured".to_owned() } else { join(&seen.light_colours) };
    let text = match category {
        Category::MonitorSetup => match seen.monitors? {
            0 if laptop => "your laptop is the only screen, down at desk height".to_owned(),
            0 => return None,
            2 if seen.stacked_monitors => "your two monitors stand one above the other".to_owned(),
            n @ 2.. if seen.uneven_monitors => {
                format!("your {} monitors sit at different heights", number(n.into()))
            }
            n @ 2.. if seen.on_arms => format!("your {} monitors already hang on arms", number(n.into())),
            n @ 2.. => format!("you work across {} monitors", number(n.into())),
            _ if laptop => "you work on one monitor with a laptop beside it".to_owned(),
            _ if seen.on_arms => "your monitor already hangs on an arm".to_owned(),
            _ => "everything happens on one monitor".to_owned(),
        },
        Category::RgbLighting if described => match seen.light? {
            Light::Neon => "you describe plenty of coloured lighting already".to_owned(),
            Light::Accent => "you describe some coloured lighting".to_owned(),
            Light::White if seen.dark_room => "you describe a dark room without coloured light".to_owned(),
            Light::White => "you describe no coloured lighting".to_owned(),
        },
        Category::RgbLighting => match seen.light? {
            Light::Neon => format!("your room is already lit by saturated {colours} light"),
            Light::Accent => format!("there is only a touch of {colours} light"),
            Light::White if seen.dark_room => "the room is dark and has no coloured light".to_owned(),
            Light::White => "there is no coloured lighting, only plain white light".to_owned(),
        },
        Category::DeskCleanliness => {
            if !seen.clutter.is_empty() {
                let items: Vec<String> = seen.clutter.iter().map(|c| spelled(c)).collect();
                format!(
                    "{} {} on your desk",
                    join(&items),
                    if is_one(&seen.clutter) { "sits" } else { "sit" }
                )
            } else if seen.busy_desk {
                "small items and papers cover part of your desk".to_owned()
            } else {
                "your desk is already mostly clear".to_owned()
            }
        }
        Category::CableManagement => {
            let n = seen.loose_cables?;
            if n == 0 && described {
                return Some("you describe no loose cables".to_owned());
            }
            if n == 0 {
                let text = if seen.dark_room {
                    "no loose cables are in view, but the dark room can hide them"
                } else {
                    "no loose cables are in view"
                };
                return Some(text.to_owned());
            }
            let (one, many) = match seen.cables_mostly {
                Some(CablePlace::UnderDesk) => ("hangs under your desk", "hang under your desk"),
                Some(CablePlace::BehindMonitor) => ("runs behind your monitor", "run behind your monitor"),
                Some(CablePlace::OnDesk) => ("lies across your desk", "lie across your desk"),
                None if described => return Some("your description mentions loose cables".to_owned()),
                None => ("is in view", "are in view"),
            };
            if n == 1 { format!("a loose cable {one}") } else { format!("{} loose cables {many}", number(n)) }
        }
        Category::ChairComfort => match seen.seat? {
            Seat::GamingChair => "you sit on a gaming chair".to_owned(),
            Seat::DeskChair => "you already have a desk chair".to_owned(),
            Seat::Couch => "you sit on a couch or armchair rather than a desk chair".to_owned(),
            Seat::Nothing if described => "you don't mention a chair".to_owned(),
            Seat::Nothing => "no chair is visible in the photo".to_owned(),
        },
        Category::AestheticVibe => {
            if seen.light == Some(Light::Neon) {
                format!("your setup glows with saturated {colours} light")
            } else if seen.plants.is_some_and(|n| n > 0) {
                "your plants already soften the desk".to_owned()
            } else if seen.greenery && described {
                "you already mention greenery".to_owned()
            } else if seen.greenery {
                "there is already greenery in view".to_owned()
            } else if !seen.clutter.is_empty() || seen.busy_desk {
                "the things left out on the desk pull the look apart".to_owned()
            } else if seen.plants == Some(0) && described {
                "you describe no plants or decor".to_owned()
            } else if seen.plants == Some(0) {
                "there are no plants or decor in view".to_owned()
            } else {
                return None;
            }
        }
    };
    Some(text)
}

/// What a product of `kind` changes, given what was seen: the second half of a justification.
fn effect(kind: ProductKind, category: Category, seen: &Seen) -> &'static str {
    use ProductKind as K;
    let monitors = seen.monitors.unwrap_or(0);
    let laptop_only = monitors == 0 && seen.laptops.is_some_and(|n| n > 0);
    let neon = seen.light == Some(Light::Neon);
    let has_plants = seen.plants.is_some_and(|n| n > 0) || seen.greenery;
    let chair = matches!(seen.seat, Some(Seat::DeskChair | Seat::GamingChair));
    match kind {
        K::DualArm if seen.stacked_monitors => {
            "a dual monitor arm holds the stack steady and frees the desk under it"
        }
        K::DualArm if seen.uneven_monitors => "a dual monitor arm levels them and frees the desk under them",
        K::DualArm if monitors >= 2 => {
            "a dual monitor arm holds them at one height and angle and frees the desk"
        }
        K::DualArm => "a dual monitor arm holds a second screen beside the first at the same height",
        K::MonitorArm if monitors >= 2 => "a monitor arm lifts the main one to eye height and frees the desk",
        K::MonitorArm => "a monitor arm lifts it to eye height and frees the desk under it",
        K::LaptopStand if laptop_only => {
            "a laptop stand raises the screen to eye level, so you stop looking down"
        }
        K::LaptopStand => "a laptop stand lifts the laptop level with the monitor as a second screen",
        K::Monitor if laptop_only => "a monitor gives you a proper screen at eye height",
        K::Monitor if monitors == 1 => "a second monitor gives you room to spread out",
        K::Monitor => "a sharper, faster main screen lifts the whole setup",
        K::ScreenBar if neon => {
            "a monitor light bar adds a neutral task light, so the desk isn't lit by colour alone"
        }
        K::ScreenBar => "a monitor light bar lights the desk without glare on the screen",
        K::LedStrip if neon => "an LED strip on the back of the monitor matches the light to the screen",
        K::LedStrip if seen.dark_room => {
            "an LED strip behind the monitor gives it a soft glow and eases eye strain"
        }
        K::LedStrip => "an LED strip behind the monitor adds the colour the setup is missing",
        K::LightBars => "a pair of light bars washes the wall behind the desk in colour",
        K::LightPanels => "light panels give the wall a colourful centrepiece",
        K::NeonSign => "a neon sign puts a glowing accent on the wall behind the desk",
        K::WarmLamp if neon => "a warm lamp balances the colour with soft, even light to work by",
        K::WarmLamp => "a warm lamp gives soft light to work by",
        K::DeskOrganiser => "a desk organiser gives the small things one place instead of the whole surface",
        K::DrawerUnit => "a drawer unit keeps small things out of sight but in reach",
        K::StorageRiser => "a monitor stand with a drawer swallows small things under the screen",
        K::Pegboard => "a pegboard moves small things onto the wall",
        K::HeadphoneHook => "a headphone hook takes the headset off the desk",
        K::DeskMat if category == Category::AestheticVibe => "a desk mat gives the desk one calm colour",
        K::DeskMat => "a desk mat marks out a calm work area under keyboard and mouse",
        K::CableTray => "an under-desk cable tray lifts the cables off the floor and out of sight",
        K::CableSpine => "a cable spine gathers the cables into one neat run from desk to floor",
        K::CableRaceway => "a cable raceway hides the cables in a channel along the desk",
        K::CableTies => "velcro ties bundle the cables into a few tidy runs",
        K::CableSleeve => "a cable sleeve turns the cables into one neat run",
        K::CableClips => "desk-edge cable clips hold the cables where you plug in",
        K::CableBox => "a cable box hides the power strip and its tangle of plugs",
        K::CableKit => "a complete cable kit routes every cable from wall to desk",
        K::LumbarCushion if chair => "a lumbar cushion adds lower-back support to it",
        K::LumbarCushion => "a lumbar cushion supports your lower back",
        K::Footrest => "a footrest keeps your feet flat and knees level",
        K::GamingChair if chair => "a better gaming chair adds proper lumbar support and adjustment",
        K::GamingChair => "a gaming chair gives you proper support at the desk",
        K::ErgonomicChair if chair => "an ergonomic chair adds adjustable lumbar support for long days",
        K::ErgonomicChair => "an ergonomic chair gives you proper support at the desk",
        K::PlantSet => "a plant set adds green and softness",
        K::WallPanels if neon => "wall panels give the light a textured backdrop to play on",
        K::WallPanels => "wall panels turn a bare wall into a backdrop",
        K::WallShelf if has_plants => "a wall shelf gives plants a place at eye level",
        K::WallShelf => "a wall shelf gives decor a place of its own",
        K::DeskShelf if has_plants => "a desk shelf raises the screen and gives your plants a stage",
        K::DeskShelf => "a desk shelf raises the screen and makes the desk look designed",
        K::AmbientLamp if neon => "an RGB ambient lamp repeats the colour on the desk itself",
        K::AmbientLamp => "an RGB ambient lamp adds an accent colour that ties the look together",
    }
}

// ---------------------------------------------------------------------------------------
// Words

/// "two", "three"... up to nine, then digits.
fn number(n: u32) -> String {
    const WORDS: [&str; 10] = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"];
    usize::try_from(n).ok().and_then(|i| WORDS.get(i)).map_or_else(|| n.to_string(), |w| (*w).to_owned())
}

/// "1 book" read aloud: "a book"; "3 cups" stays.
fn spelled(counted: &str) -> String {
    match counted.strip_prefix("1 ") {
        Some(noun) => format!("{} {noun}", article(noun)),
        None => counted.to_owned(),
    }
}

/// Whether the clutter is a single item ("a book sits on your desk").
fn is_one(clutter: &[String]) -> bool {
    matches!(clutter, [only] if only.starts_with("1 "))
}

/// The categories to suggest for and their scores: those scored below [`GOOD_ENOUGH`],
/// weakest first, the firmly rated before the doubtful at an equal score, at most
/// [`MAX_SUGGESTIONS`]. The weakest always leads, doubtful or not; an unseen category (no
/// score) is never one.
fn candidates(assessment: &Assessment) -> Vec<(&CategoryScore, Points)> {
    let mut weak: Vec<(&CategoryScore, Points)> = assessment
        .weakest_first()
        .into_iter()
        .filter_map(|r| r.score.filter(|&score| score < GOOD_ENOUGH).map(|score| (r, score)))
        .collect();
    weak.sort_by_key(|(r, score)| (*score, is_unsure(r)));
    weak.truncate(MAX_SUGGESTIONS);
    weak
}

/// Rated with low confidence: the photo or the description gave little to go on.
fn is_unsure(rating: &CategoryScore) -> bool {
    rating.confidence == Some(Confidence::Low)
}

/// Overall-score points gained per dollar: the category's weight times the points the
/// product can still add to `score` (never past 10), over its price.
fn value_per_dollar(category: Category, score: Points, gain: u8, price_cents: i64) -> f64 {
    let points = f64::from(gain).min(Points::MAX.value() - score.value().min(Points::MAX.value()));
    let dollars = (price_cents.max(1) as f64) / 100.0;
    category.weight() * points / dollars
}

fn title(category: Category) -> &'static str {
    match category {
        Category::CableManagement => "Tame your cables",
        Category::RgbLighting => "Add some ambient lighting",
        Category::DeskCleanliness => "Clear the desk surface",
        Category::MonitorSetup => "Level up your monitor setup",
        Category::ChairComfort => "Upgrade your seating",
        Category::AestheticVibe => "Pull the look together",
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use setupiq_core::ProductId;

    use super::*;
    use ProductKind as K;

    fn product(id: i64, kind: ProductKind, tier: Tier, price_cents: i64, rating: f64) -> Product {
        Product {
            id: ProductId(id),
            name: format!("{kind} {id}"),
            category: "Accessories".into(),
            tier,
            price_cents,
            link: format!("https://shop.example.com/{id}?tag=setupiq-20"),
            justification: format!("The blurb of {id}."),
            rating,
            kind: Some(kind),
        }
    }

    /// A catalogue of `(kind, price, rating)` per tier, each tier best-rated first as the
    /// affiliate service hands it out.
    fn catalogue(tiers: [&[(ProductKind, i64, f64)]; 3]) -> Recommendation {
        let mut id = 0;
        let [budget, balanced, premium] = [Tier::Budget, Tier::Balanced, Tier::Premium].map(|tier| {
            let i = match tier {
                Tier::Budget => 0,
                Tier::Balanced => 1,
                Tier::Premium => 2,
            };
            let mut products: Vec<Product> = tiers[i]
                .iter()
                .map(|&(kind, price, rating)| {
                    id += 1;
                    product(id, kind, tier, price, rating)
                })
                .collect();
            products.sort_by(|a, b| b.rating.total_cmp(&a.rating));
            products
        });
        Recommendation { budget, balanced, premium }
    }

    fn monitors() -> Recommendation {
        catalogue([
            &[(K::LaptopStand, 2599, 4.6), (K::MonitorArm, 2999, 4.5), (K::DualArm, 3999, 4.5)],
            &[
                (K::LaptopStand, 5990, 4.7),
                (K::ScreenBar, 10900, 4.6),
                (K::DualArm, 8999, 4.6),
                (K::Monitor, 14999, 4.5),
            ],
            &[(K::MonitorArm, 18900, 4.7), (K::Monitor, 29999, 4.7), (K::DualArm, 38900, 4.6)],
        ])
    }

    fn lighting() -> Recommendation {
        catalogue([
            &[(K::NeonSign, 3499, 4.6), (K::LedStrip, 2499, 4.5), (K::WarmLamp, 2999, 4.5)],
            &[(K::LightBars, 12999, 4.7), (K::ScreenBar, 4999, 4.5), (K::LightPanels, 9999, 4.4)],
            &[(K::LightPanels, 19999, 4.6), (K::ScreenBar, 17900, 4.5), (K::LedStrip, 17999, 4.5)],
        ])
    }

    /// Plant sets are the best-rated in every tier: only what was seen keeps them out.
    fn decor() -> Recommendation {
        catalogue([
            &[(K::PlantSet, 1999, 4.7), (K::WallPanels, 1899, 4.3), (K::WallShelf, 2499, 4.4)],
            &[(K::PlantSet, 3999, 4.7), (K::WallPanels, 4599, 4.4), (K::AmbientLamp, 4999, 4.5)],
            &[(K::PlantSet, 9999, 4.7), (K::DeskShelf, 8999, 4.6), (K::WallPanels, 12999, 4.6)],
        ])
    }

    fn chairs() -> Recommendation {
        catalogue([
            &[(K::GamingChair, 13999, 4.5), (K::LumbarCushion, 2999, 4.4), (K::Footrest, 3499, 4.4)],
            &[(K::GamingChair, 29999, 4.5)],
            &[(K::GamingChair, 54900, 4.7)],
        ])
    }

    fn rated(category: Category, score: u8) -> CategoryScore {
        CategoryScore {
            category,
            score: Some(Points::whole(score)),
            comment: "What the analyzer said.".into(),
            confidence: Some(Confidence::High),
        }
    }

    fn suggested(category: Category, seen: Option<&Seen>, catalogue: &Recommendation) -> Suggestion {
        let s =
            suggestion(&rated(category, 5), Points::whole(5), Facts { seen, described: false }, catalogue);
        assert_each_sentence_once(&s);
        s
    }

    /// No sentence is said twice on one card: the description, then each tier's product (the
    /// recommended pick is one of them).
    fn assert_each_sentence_once(s: &Suggestion) {
        let mut said = sentences(&s.description);
        for product in [&s.tiers.budget, &s.tiers.balanced, &s.tiers.premium].into_iter().flatten() {
            said.extend(sentences(&product.justification));
        }
        let mut unique = said.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), said.len(), "a sentence twice: {said:#?}");
    }

    /// What the recommended pick says.
    fn pick_says(s: &Suggestion) -> &str {
        &s.product_recommendation.as_ref().unwrap().justification
    }

    fn kinds(s: &Suggestion, catalogue: &Recommendation) -> [ProductKind; 3] {
        let kind_of = |p: &ProductRecommendation| {
            catalogue
                .tier(p.tier)
                .iter()
                .find(|c| c.id == ProductId(p.product_id))
                .and_then(|c| c.kind)
                .unwrap()
        };
        [&s.tiers.budget, &s.tiers.balanced, &s.tiers.premium].map(|p| kind_of(p.as_ref().unwrap()))
    }

    fn two_uneven_monitors() -> Seen {
        Seen { monitors: Some(2), laptops: Some(0), uneven_monitors: true, ..Seen::default() }
    }

    #[test]
    fn two_monitors_at_different_heights_get_a_dual_arm_and_are_told_why() {
        let catalogue = monitors();
        let s = suggested(Category::MonitorSetup, Some(&two_uneven_monitors()), &catalogue);
        assert_eq!(kinds(&s, &catalogue), [K::DualArm; 3]);
        assert_eq!(s.description, "5/10. Your two monitors sit at different heights.");
        assert_eq!(pick_says(&s), "A dual monitor arm levels them and frees the desk under them.");
        // The other two dual arms say something of their own, not the pick's sentence again.
        let budget = s.tiers.budget.as_ref().unwrap();
        assert_eq!(s.product_recommendation.as_ref(), Some(budget), "the cheapest gain is the best value");
        for other in [&s.tiers.balanced, &s.tiers.premium] {
            let other = other.as_ref().unwrap();
            assert_eq!(other.justification, format!("The blurb of {}.", other.product_id));
        }
    }

    #[test]
    fn stacked_monitors_are_said_to_be_stacked() {
        let catalogue = monitors();
        let stacked = Seen { monitors: Some(2), laptops: Some(0), stacked_monitors: true, ..Seen::default() };
        let s = suggested(Category::MonitorSetup, Some(&stacked), &catalogue);
        assert_eq!(kinds(&s, &catalogue), [K::DualArm; 3]);
        assert_eq!(s.description, "5/10. Your two monitors stand one above the other.");
        assert_eq!(pick_says(&s), "A dual monitor arm holds the stack steady and frees the desk under it.");
    }

    #[test]
    fn a_laptop_alone_gets_a_laptop_stand_and_a_single_monitor_an_arm() {
        let catalogue = monitors();
        let laptop = Seen { monitors: Some(0), laptops: Some(1), ..Seen::default() };
        let s = suggested(Category::MonitorSetup, Some(&laptop), &catalogue);
        assert_eq!(kinds(&s, &catalogue)[..2], [K::LaptopStand, K::LaptopStand]);
        assert_eq!(kinds(&s, &catalogue)[2], K::Monitor, "no laptop stand at premium: a proper screen");
        assert_eq!(s.description, "5/10. Your laptop is the only screen, down at desk height.");
        assert_eq!(pick_says(&s), "A laptop stand raises the screen to eye level, so you stop looking down.");

        let single = Seen { monitors: Some(1), laptops: Some(0), ..Seen::default() };
        let s = suggested(Category::MonitorSetup, Some(&single), &catalogue);
        assert_eq!(kinds(&s, &catalogue), [K::MonitorArm, K::Monitor, K::MonitorArm]);
        assert!(!s.tiers.balanced.as_ref().unwrap().justification.contains("dual"), "{s:?}");
    }

    #[test]
    fn different_setups_get_different_picks() {
        let catalogue = monitors();
        let laptop = Seen { monitors: Some(0), laptops: Some(1), ..Seen::default() };
        let picks = |seen: &Seen| {
            let s = suggested(Category::MonitorSetup, Some(seen), &catalogue);
            [
                s.tiers.budget.as_ref().unwrap().product_id,
                s.tiers.balanced.as_ref().unwrap().product_id,
                s.tiers.premium.as_ref().unwrap().product_id,
            ]
        };
        let (dual, alone) = (picks(&two_uneven_monitors()), picks(&laptop));
        assert!(dual.iter().zip(&alone).all(|(a, b)| a != b), "{dual:?} vs {alone:?}");
    }

    #[test]
    fn a_neon_room_is_never_sold_a_plant_set_and_a_bare_one_is() {
        let catalogue = decor();
        let neon = Seen {
            light: Some(Light::Neon),
            light_colours: vec!["purple".into(), "cyan".into()],
            plants: Some(0),
            ..Seen::default()
        };
        let s = suggested(Category::AestheticVibe, Some(&neon), &catalogue);
        assert!(!kinds(&s, &catalogue).contains(&K::PlantSet), "{:?}", kinds(&s, &catalogue));
        assert_eq!(kinds(&s, &catalogue)[0], K::WallPanels);
        assert_eq!(s.description, "5/10. Your setup glows with saturated purple and cyan light.");
        assert_eq!(
            s.tiers.budget.as_ref().unwrap().justification,
            "Wall panels give the light a textured backdrop to play on."
        );

        let bare = Seen { light: Some(Light::White), plants: Some(0), ..Seen::default() };
        let s = suggested(Category::AestheticVibe, Some(&bare), &catalogue);
        assert_eq!(kinds(&s, &catalogue), [K::PlantSet; 3]);
        assert_eq!(s.description, "5/10. There are no plants or decor in view.");
    }

    #[test]
    fn lighting_adds_what_the_room_lacks() {
        let catalogue = lighting();
        let dark = Seen { light: Some(Light::White), dark_room: true, ..Seen::default() };
        let s = suggested(Category::RgbLighting, Some(&dark), &catalogue);
        assert_eq!(kinds(&s, &catalogue)[0], K::LedStrip);
        assert_eq!(s.description, "5/10. The room is dark and has no coloured light.");
        assert_eq!(
            s.tiers.budget.as_ref().unwrap().justification,
            "An LED strip behind the monitor gives it a soft glow and eases eye strain."
        );
        // Already neon: a neutral light, not more colour.
        let neon = Seen { light: Some(Light::Neon), ..Seen::default() };
        let s = suggested(Category::RgbLighting, Some(&neon), &catalogue);
        assert_eq!(kinds(&s, &catalogue), [K::WarmLamp, K::ScreenBar, K::ScreenBar]);
        assert!(
            s.tiers.balanced.as_ref().unwrap().justification.contains("isn't lit by colour alone"),
            "{s:?}"
        );
        assert_ne!(
            s.tiers.balanced.as_ref().unwrap().justification,
            s.tiers.premium.as_ref().unwrap().justification,
            "two screen bars, two different sentences"
        );
    }

    #[test]
    fn a_chair_in_view_gets_support_before_a_new_chair() {
        let catalogue = chairs();
        let chair = Seen { seat: Some(Seat::DeskChair), ..Seen::default() };
        let s = suggested(Category::ChairComfort, Some(&chair), &catalogue);
        assert_eq!(kinds(&s, &catalogue)[0], K::LumbarCushion);
        assert_eq!(s.description, "5/10. You already have a desk chair.");
        assert_eq!(
            s.tiers.budget.as_ref().unwrap().justification,
            "A lumbar cushion adds lower-back support to it."
        );
        let couch = Seen { seat: Some(Seat::Couch), ..Seen::default() };
        let s = suggested(Category::ChairComfort, Some(&couch), &catalogue);
        assert_eq!(kinds(&s, &catalogue)[0], K::GamingChair);
    }

    #[test]
    fn without_facts_the_best_rated_product_speaks_for_itself() {
        let catalogue = decor();
        let s = suggested(Category::AestheticVibe, None, &catalogue);
        assert_eq!(kinds(&s, &catalogue), [K::PlantSet; 3]);
        assert_eq!(
            s.tiers.budget.as_ref().unwrap().justification,
            format!("The blurb of {}.", s.tiers.budget.as_ref().unwrap().product_id)
        );
        assert_eq!(s.description, "5/10: What the analyzer said.");
        assert!(pick_says(&s).starts_with("The blurb of"), "{}", pick_says(&s));
    }

    #[test]
    fn words_read_as_english() {
        assert_eq!(spelled("1 book"), "a book");
        assert_eq!(spelled("3 cups"), "3 cups");
        assert_eq!(number(2), "two");
        assert_eq!(number(12), "12");
        let cluttered = Seen { clutter: vec!["3 cups".into(), "1 book".into()], ..Seen::default() };
        assert_eq!(
            evidence(Category::DeskCleanliness, &cluttered, false).unwrap(),
            "3 cups and a book sit on your desk"
        );
        let lamp = effect(K::AmbientLamp, Category::AestheticVibe, &Seen::default());
        assert!(lamp.starts_with("an RGB"), "{lamp}");
    }

    #[test]
    fn a_description_is_never_spoken_of_as_a_photo() {
        let facts = [
            Seen { loose_cables: Some(0), dark_room: true, ..Seen::default() },
            Seen { loose_cables: Some(2), ..Seen::default() },
            Seen { light: Some(Light::Accent), ..Seen::default() },
            Seen { light: Some(Light::Neon), ..Seen::default() },
            Seen { light: Some(Light::White), ..Seen::default() },
            Seen { plants: Some(0), ..Seen::default() },
            Seen { greenery: true, ..Seen::default() },
            Seen { seat: Some(Seat::Nothing), ..Seen::default() },
        ];
        for seen in &facts {
            for category in Category::ALL {
                let Some(said) = evidence(category, seen, true) else { continue };
                for photo_word in ["photo", "in view", "visible", "touch of"] {
                    assert!(!said.contains(photo_word), "{category} {seen:?}: {said}");
                }
            }
        }
        let lit = Seen { light: Some(Light::Accent), ..Seen::default() };
        assert_eq!(
            evidence(Category::RgbLighting, &lit, true).unwrap(),
            "you describe some coloured lighting"
        );
        assert_eq!(
            evidence(Category::RgbLighting, &lit, false).unwrap(),
            "there is only a touch of coloured light"
        );
        let tidy = Seen { loose_cables: Some(0), ..Seen::default() };
        assert_eq!(evidence(Category::CableManagement, &tidy, true).unwrap(), "you describe no loose cables");
        assert_eq!(evidence(Category::CableManagement, &tidy, false).unwrap(), "no loose cables are in view");
    }

    fn assessment(ratings: [(Category, Option<u8>, Confidence); 6]) -> Assessment {
        let mut a = assessment_in_halves(
            ratings.map(|(c, score, confidence)| (c, score.map(|s| i32::from(s) * 2), confidence)),
        );
        a.overall_score = 5.0;
        a
    }

    /// An assessment whose scores are given in half points (13 is 6.5/10).
    fn assessment_in_halves(ratings: [(Category, Option<i32>, Confidence); 6]) -> Assessment {
        Assessment {
            overall_score: 5.0,
            summary: "s".into(),
            category: "Everyday Desk Setup".into(),
            category_ratings: ratings
                .into_iter()
                .map(|(category, score, confidence)| CategoryScore {
                    category,
                    score: score.map(Points::halves),
                    comment: "seen".into(),
                    confidence: Some(confidence),
                })
                .collect(),
            cable_inventory: setupiq_analyzer::result::CableInventory::of(Vec::new()),
            seen: None,
            source: None,
        }
    }

    fn picked(a: &Assessment) -> Vec<Category> {
        candidates(a).iter().map(|(r, _)| r.category).collect()
    }

    #[test]
    fn the_weakest_leads_even_when_doubtful_and_an_unseen_chair_is_never_suggested() {
        use Confidence::{High, Low, Medium};
        let mut ratings = [
            (Category::CableManagement, Some(6), High),
            (Category::RgbLighting, Some(4), High),
            (Category::DeskCleanliness, Some(9), High),
            (Category::MonitorSetup, Some(7), Medium),
            (Category::ChairComfort, Some(3), Low),
            (Category::AestheticVibe, Some(9), High),
        ];
        // The chair scores lowest, rated with low confidence: it still leads, then the others
        // by score.
        assert_eq!(
            picked(&assessment(ratings)),
            [Category::ChairComfort, Category::RgbLighting, Category::CableManagement]
        );
        // At an equal score the firmly rated goes first.
        ratings[4].1 = Some(4);
        assert_eq!(
            picked(&assessment(ratings)),
            [Category::RgbLighting, Category::ChairComfort, Category::CableManagement]
        );
        // Not in the photo at all: never suggested.
        ratings[4].1 = None;
        assert_eq!(
            picked(&assessment(ratings)),
            [Category::RgbLighting, Category::CableManagement, Category::MonitorSetup]
        );
    }

    #[test]
    fn a_stronger_category_is_never_pitched_ahead_of_a_weaker_one() {
        use Confidence::High;
        // Cheap, big gains for an 8/10 do not put it before a 4/10.
        let a = assessment([
            (Category::CableManagement, Some(8), High),
            (Category::RgbLighting, Some(9), High),
            (Category::DeskCleanliness, Some(4), High),
            (Category::MonitorSetup, Some(6), High),
            (Category::ChairComfort, None, High),
            (Category::AestheticVibe, Some(9), High),
        ]);
        assert_eq!(
            picked(&a),
            [Category::DeskCleanliness, Category::MonitorSetup, Category::CableManagement]
        );
    }

    #[test]
    fn a_doubtful_category_says_what_would_settle_it() {
        let doubtful = CategoryScore {
            category: Category::ChairComfort,
            score: Some(Points::whole(3)),
            comment: "Hard to tell.".into(),
            confidence: Some(Confidence::Low),
        };
        let chair = Seen { seat: Some(Seat::DeskChair), ..Seen::default() };
        let s = suggestion(
            &doubtful,
            Points::whole(3),
            Facts { seen: Some(&chair), described: false },
            &chairs(),
        );
        assert!(
            s.description.starts_with("3/10. You already have a desk chair. A rough call:"),
            "{}",
            s.description
        );
        assert!(s.description.contains("a photo that includes your chair"), "{}", s.description);
        let s = suggestion(&doubtful, Points::whole(3), Facts { seen: None, described: true }, &chairs());
        assert!(s.description.ends_with("say what you sit on to get a firm score."), "{}", s.description);
        assert!(!s.description.contains("photo"), "{}", s.description);
        assert_each_sentence_once(&s);
    }

    #[test]
    fn cheaper_gains_win_until_the_score_caps_them() {
        let monitors = Category::MonitorSetup;
        let [three, nine] = [3, 9].map(Points::whole);
        assert!(value_per_dollar(monitors, three, 1, 2999) > value_per_dollar(monitors, three, 3, 29999));
        assert_eq!(value_per_dollar(monitors, nine, 3, 1000), value_per_dollar(monitors, nine, 1, 1000));
        // 8.5 leaves one and a half points to gain: a 3-point product adds 1.5.
        let eight_and_a_half = Points::halves(17);
        assert_eq!(value_per_dollar(monitors, eight_and_a_half, 3, 1000), 0.2 * 1.5 / 10.0);
    }

    #[test]
    fn a_half_point_below_good_enough_is_still_suggested_and_read_as_shown() {
        use Confidence::High;
        // 8.5 is below the 9 that is good enough; 9 is not.
        let a = assessment_in_halves([
            (Category::CableManagement, Some(17), High),
            (Category::RgbLighting, Some(18), High),
            (Category::DeskCleanliness, Some(13), High),
            (Category::MonitorSetup, Some(14), High),
            (Category::ChairComfort, None, High),
            (Category::AestheticVibe, Some(20), High),
        ]);
        assert_eq!(
            picked(&a),
            [Category::DeskCleanliness, Category::MonitorSetup, Category::CableManagement]
        );
        let (rating, score) = candidates(&a)[0];
        let s = suggestion(rating, score, Facts { seen: None, described: false }, &chairs());
        assert!(s.description.starts_with("6.5/10"), "{}", s.description);
    }
}
