//! The Monitor Setup category: the screen facts of a description gathered into one picture
//! ("two 27-inch 165 Hz IPS monitors on arms"), scored from it.
//!
//! Specs are read for the whole description, not per screen: people describe one setup, and
//! "a 27-inch 165 Hz monitor and a laptop" is one monitor with those specs.

use super::lexicon::{self, MonitorFact, Panel, Role};
use super::mentions::{Mention, Polarity};
use super::rubric::{self, Read};
use super::tokens::Token;
use crate::result::Category;

/// A monitor is mentioned but nothing else is known about it.
const BASE: f32 = 5.0;
/// Only a laptop's own screen.
const LAPTOP_ONLY: f32 = 4.0;
/// "no monitor" and no screen described.
const NO_MONITOR: f32 = 3.0;

/// Points by size (inches, the largest mentioned): big screens are the upgrade people feel.
const LARGE_SIZE: (f32, f32) = (32.0, 1.0);
const GOOD_SIZE: (f32, f32) = (27.0, 0.5);
const SMALL_SIZE: (f32, f32) = (24.0, -0.5);
/// Points by refresh rate (Hz), the highest threshold reached; 60 Hz and below cost a little.
const REFRESH_POINTS: [(f32, f32); 3] = [(240.0, 2.0), (144.0, 1.5), (100.0, 1.0)];
const SLOW_REFRESH: (f32, f32) = (60.0, -0.5);
/// Points by vertical resolution; below 1080p costs a point.
const RESOLUTION_POINTS: [(u32, f32); 2] = [(2160, 1.5), (1440, 1.0)];
const LOW_RESOLUTION: (u32, f32) = (1080, -1.0);
const TWO_SCREENS: f32 = 1.0;
const THREE_OR_MORE_SCREENS: f32 = 1.5;
const ULTRAWIDE: f32 = 1.0;
/// An arm puts the screen at eye height and frees the desk.
const ON_AN_ARM: f32 = 1.0;
const ON_A_STAND: f32 = 0.5;
/// "at eye level": set where a person would set it.
const AT_EYE_LEVEL: f32 = 0.5;
/// "not at eye level".
const NOT_AT_EYE_LEVEL: f32 = -1.0;
/// "old", "cheap", "tiny" next to the screen.
const WORN: f32 = -1.5;
const JUDGED_BAD: f32 = -1.5;
const JUDGED_GOOD: f32 = 1.0;

/// Plausible values: anything else is some other number ("2 in the corner").
const SIZE_RANGE: std::ops::RangeInclusive<f32> = 10.0..=100.0;
const REFRESH_RANGE: std::ops::RangeInclusive<f32> = 24.0..=1000.0;

/// Words before a screen noun that count the screens ("dual", "two 27-inch ... monitors").
const COUNT_WORDS: &[(&str, u8)] = &[
    ("single", 1),
    ("one", 1),
    ("dual", 2),
    ("double", 2),
    ("twin", 2),
    ("two", 2),
    ("second", 2),
    ("pair", 2),
    ("multiple", 2),
    ("triple", 3),
    ("three", 3),
    ("several", 3),
    ("quad", 4),
    ("four", 4),
    ("five", 5),
    ("six", 6),
];
/// Words before a screen noun that say it is past its best.
const WORN_WORDS: &[&str] = &[
    "old",
    "ancient",
    "cheap",
    "budget",
    "tiny",
    "small",
    "crappy",
    "used",
    "secondhand",
    "dim",
    "dying",
    "dated",
];
/// How far before a screen noun counts and qualifiers are looked for.
const QUALIFIER_REACH: usize = 7;
/// A count written as a digit ("2 monitors") up to this many screens.
const MAX_COUNT: u8 = 6;

/// What the description says about the screens.
#[derive(Debug, Default)]
pub(super) struct Monitors {
    screen: bool,
    tv: bool,
    laptop: bool,
    no_monitor: bool,
    count: Option<u8>,
    sizes: Vec<f32>,
    refresh: Option<f32>,
    high_refresh: bool,
    resolution: Option<u32>,
    panel: Option<Panel>,
    ultrawide: bool,
    curved: bool,
    arm: bool,
    no_arm: bool,
    stand: bool,
    /// Said to be at eye level (`Some(true)`) or not (`Some(false)`).
    eye_level: Option<bool>,
    worn: bool,
    judgement: Option<Polarity>,
}

impl Monitors {
    /// Gathers the screen facts of `mentions`.
    pub fn read(tokens: &[Token], mentions: &[Mention]) -> Monitors {
        let mut monitors = Monitors::default();
        let owned = owned_tokens(tokens.len(), mentions);
        for mention in mentions {
            let Role::Monitor(fact) = mention.cue.role else { continue };
            if mention.is_negated() {
                match fact {
                    MonitorFact::Screen => monitors.no_monitor = true,
                    MonitorFact::Arm => monitors.no_arm = true,
                    MonitorFact::EyeLevel => monitors.eye_level = Some(false),
                    _ => {}
                }
                continue;
            }
            monitors.add(fact, mention, tokens);
            if matches!(
                fact,
                MonitorFact::Screen | MonitorFact::Tv | MonitorFact::Size | MonitorFact::Ultrawide
            ) {
                monitors.read_qualifiers(tokens, &owned, mention);
            }
        }
        monitors
    }

    fn add(&mut self, fact: MonitorFact, mention: &Mention, tokens: &[Token]) {
        let first = mention.numbers.first().copied();
        match fact {
            MonitorFact::Screen => {
                self.screen = true;
                if matches!(mention.polarity, Polarity::Pejorative | Polarity::Appreciative) {
                    self.judgement = Some(mention.polarity);
                }
            }
            MonitorFact::Tv => self.tv = true,
            MonitorFact::Laptop => self.laptop = true,
            MonitorFact::Size => {
                if let Some(size) = first.filter(|s| SIZE_RANGE.contains(s))
                    && !self.sizes.contains(&size)
                {
                    self.sizes.push(size);
                }
            }
            MonitorFact::Refresh => {
                if let Some(hz) = first.filter(|hz| REFRESH_RANGE.contains(hz)) {
                    self.refresh = Some(self.refresh.map_or(hz, |known| known.max(hz)));
                }
            }
            MonitorFact::HighRefresh => self.high_refresh = true,
            MonitorFact::Resolution(named) => {
                if let Some(lines) = named.or_else(|| resolution_of(mention, tokens)) {
                    self.resolution = Some(self.resolution.map_or(lines, |known| known.max(lines)));
                }
            }
            MonitorFact::Panel(panel) => {
                self.panel = Some(self.panel.map_or(panel, |known| known.max(panel)))
            }
            MonitorFact::Ultrawide => self.ultrawide = true,
            MonitorFact::Curved => self.curved = true,
            MonitorFact::Arm => self.arm = true,
            MonitorFact::Stand => self.stand = true,
            MonitorFact::EyeLevel => self.eye_level = Some(true),
        }
    }

    /// Counts ("dual", "two", "2") and wear ("old") in the words before a screen phrase. A
    /// plural noun alone means at least two.
    fn read_qualifiers(&mut self, tokens: &[Token], owned: &[bool], mention: &Mention) {
        let noun = tokens.get(mention.tokens.end.saturating_sub(1)).map_or("", |t| t.text.as_str());
        if matches!(noun, "monitors" | "screens" | "displays" | "tvs") {
            self.count = Some(self.count.unwrap_or(0).max(2));
        }
        for at in (mention.tokens.start.saturating_sub(QUALIFIER_REACH)..mention.tokens.start).rev() {
            let token = &tokens[at];
            let word = token.text.as_str();
            if token.is_break() || lexicon::CLAUSE_WORDS.contains(&word) {
                break;
            }
            if owned[at] {
                continue;
            }
            let negated = at > 0 && lexicon::NEGATORS.contains(&tokens[at - 1].text.as_str());
            let digit =
                token.number().filter(|n| n.fract() == 0.0 && (1.0..=f32::from(MAX_COUNT)).contains(n));
            let count =
                COUNT_WORDS.iter().find(|(w, _)| *w == word).map(|&(_, n)| n).or(digit.map(|n| n as u8));
            if let Some(count) = count
                && !negated
            {
                self.count = Some(self.count.unwrap_or(0).max(count));
            }
            if WORN_WORDS.contains(&word) && !negated {
                self.worn = true;
            }
        }
    }

    pub fn mentioned(&self) -> bool {
        self.screen || self.tv || self.laptop || self.no_monitor || self.has_specs()
    }

    fn has_specs(&self) -> bool {
        !self.sizes.is_empty()
            || self.refresh.is_some()
            || self.high_refresh
            || self.resolution.is_some()
            || self.panel.is_some()
            || self.ultrawide
            || self.arm
            || self.stand
    }

    /// A screen other than a laptop's is described.
    fn has_monitor(&self) -> bool {
        self.screen || self.tv || self.has_specs()
    }

    /// How many screens (besides a laptop's) the description implies.
    pub fn count(&self) -> u8 {
        let sizes = u8::try_from(self.sizes.len()).unwrap_or(u8::MAX);
        self.count.unwrap_or(1).max(sizes).max(u8::from(self.has_monitor()))
    }

    pub fn has_laptop(&self) -> bool {
        self.laptop
    }

    /// On an arm or a wall mount.
    pub fn on_arms(&self) -> bool {
        self.arm
    }

    /// Only a laptop, no monitor.
    pub fn laptop_only(&self) -> bool {
        self.laptop && !self.has_monitor()
    }

    /// What the screen facts say about Monitor Setup: the rules' score and the screens as
    /// understood ("You describe two 27-inch monitors on arms.").
    pub fn category_read(&self) -> Read {
        if !self.mentioned() {
            return rubric::not_mentioned(Category::MonitorSetup);
        }
        if !self.has_monitor() {
            let (raw, seen) = if self.no_monitor {
                (NO_MONITOR, if self.laptop { "no monitor, only a laptop" } else { "no monitor" })
            } else {
                (LAPTOP_ONLY, "only a laptop screen")
            };
            return Read::Said { score: rubric::to_score(raw), understood: format!("You describe {seen}.") };
        }
        Read::Said {
            score: rubric::to_score(BASE + self.points()),
            understood: format!("You describe {}.", self.describe()),
        }
    }

    fn points(&self) -> f32 {
        let mut points = 0.0;
        if let Some(size) = self.sizes.iter().copied().reduce(f32::max) {
            points += if size >= LARGE_SIZE.0 {
                LARGE_SIZE.1
            } else if size >= GOOD_SIZE.0 {
                GOOD_SIZE.1
            } else if size < SMALL_SIZE.0 {
                SMALL_SIZE.1
            } else {
                0.0
            };
        }
        let refresh = self.refresh.or(self.high_refresh.then_some(REFRESH_POINTS[1].0));
        if let Some(hz) = refresh {
            points += REFRESH_POINTS.iter().find(|(at_least, _)| hz >= *at_least).map_or(0.0, |&(_, p)| p);
            if hz <= SLOW_REFRESH.0 {
                points += SLOW_REFRESH.1;
            }
        }
        if let Some(lines) = self.resolution {
            points +=
                RESOLUTION_POINTS.iter().find(|(at_least, _)| lines >= *at_least).map_or(0.0, |&(_, p)| p);
            if lines < LOW_RESOLUTION.0 {
                points += LOW_RESOLUTION.1;
            }
        }
        points += self.panel.map_or(0.0, panel_points);
        points += match self.count() {
            0 | 1 => 0.0,
            2 => TWO_SCREENS,
            _ => THREE_OR_MORE_SCREENS,
        };
        if self.ultrawide {
            points += ULTRAWIDE;
        }
        if self.arm {
            points += ON_AN_ARM;
        } else if self.stand {
            points += ON_A_STAND;
        }
        points += match self.eye_level {
            Some(true) => AT_EYE_LEVEL,
            Some(false) => NOT_AT_EYE_LEVEL,
            None => 0.0,
        };
        if self.worn {
            points += WORN;
        }
        points += match self.judgement {
            Some(Polarity::Pejorative) => JUDGED_BAD,
            Some(Polarity::Appreciative) => JUDGED_GOOD,
            _ => 0.0,
        };
        points
    }

    /// "two 27-inch 165 Hz IPS monitors on arms", "an old 22-inch 60 Hz monitor".
    fn describe(&self) -> String {
        let count = self.count();
        let mut words: Vec<String> = Vec::new();
        if self.worn {
            words.push("old".to_owned());
        }
        if !self.sizes.is_empty() {
            let sizes: Vec<String> = self.sizes.iter().map(|s| format!("{s}-inch")).collect();
            words.push(sizes.join(" and "));
        }
        if let Some(lines) = self.resolution {
            words.push(resolution_name(lines));
        }
        match self.refresh {
            Some(hz) => words.push(format!("{hz} Hz")),
            None if self.high_refresh => words.push("high-refresh".to_owned()),
            None => {}
        }
        if let Some(panel) = self.panel {
            words.push(panel.name().to_owned());
        }
        if self.curved {
            words.push("curved".to_owned());
        }
        if self.ultrawide {
            words.push("ultrawide".to_owned());
        }
        let noun = match (self.tv && !self.screen, count > 1) {
            (true, false) => "TV",
            (true, true) => "TVs",
            (false, false) => "monitor",
            (false, true) => "monitors",
        };
        words.push(noun.to_owned());
        let described = words.join(" ");
        let mut text = match count {
            0 | 1 => format!("{} {described}", crate::words::article(&described)),
            2 => format!("two {described}"),
            3 => format!("three {described}"),
            n => format!("{n} {described}"),
        };
        if self.arm {
            text.push_str(if count > 1 { " on arms" } else { " on an arm" });
        } else if self.stand {
            text.push_str(" on a stand");
        } else if self.no_arm {
            text.push_str(" with no monitor arm");
        }
        match self.eye_level {
            Some(true) => text.push_str(" at eye level"),
            Some(false) => text.push_str(" not at eye level"),
            None => {}
        }
        if self.laptop {
            text.push_str(", plus a laptop");
        }
        text
    }
}

fn owned_tokens(len: usize, mentions: &[Mention]) -> Vec<bool> {
    let mut owned = vec![false; len];
    for mention in mentions {
        if let Some(range) = owned.get_mut(mention.tokens.clone()) {
            range.iter_mut().for_each(|o| *o = true);
        }
    }
    owned
}

fn panel_points(panel: Panel) -> f32 {
    match panel {
        Panel::Oled => 1.5,
        Panel::MiniLed => 1.0,
        Panel::Ips | Panel::Va => 0.5,
        Panel::Tn => -0.5,
    }
}

/// The vertical resolution of `1440 p`, `4 k` or `2560 x 1440`.
fn resolution_of(mention: &Mention, tokens: &[Token]) -> Option<u32> {
    let unit = tokens.get(mention.tokens.end.saturating_sub(1)).map_or("", |t| t.text.as_str());
    let lines = match (mention.numbers.as_slice(), unit) {
        (&[_, lines], _) => lines as u32,
        (&[k], "k") => match k as u32 {
            2 => 1440,
            4 => 2160,
            5 => 2880,
            8 => 4320,
            _ => return None,
        },
        (&[lines], _) => lines as u32,
        _ => return None,
    };
    (480..=4320).contains(&lines).then_some(lines)
}

fn resolution_name(lines: u32) -> String {
    match lines {
        2160 => "4K".to_owned(),
        2880 => "5K".to_owned(),
        4320 => "8K".to_owned(),
        lines => format!("{lines}p"),
    }
}
