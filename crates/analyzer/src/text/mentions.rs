//! Finding the lexicon's phrases in a description, and what the words around each one do to
//! it: a negator before it ("no RGB", "without cable management", "never cleaned") or after
//! it ("cable management: none") flips it, an intensifier ("very", "a bit") scales it, a
//! judgement ("terrible lighting", "the chair is great") decides its sign.

use std::collections::BTreeMap;
use std::ops::Range;
use std::sync::LazyLock;

use super::lexicon::{self, CUES, Cue};
use super::tokens::Token;
use crate::result::Category;

/// A negator reaches a phrase that starts at most this many words later
/// ("don't really have any RGB").
const NEGATION_REACH: usize = 4;
/// An intensifier or a judgement qualifies a phrase at most this many words later
/// ("super super clean", "great office chair").
const MODIFIER_REACH: usize = 2;
/// A negator or judgement after a phrase counts at most this many words after it
/// ("the lighting is honestly terrible").
const POSTFIX_REACH: usize = 3;

const STRONGER_FACTOR: f32 = 1.5;
const WEAKER_FACTOR: f32 = 0.6;
/// "not very clean" is not the opposite of "very clean": a negated, intensified phrase
/// counts for this share of its flipped weight.
const NEGATED_STRONG_FACTOR: f32 = 0.5;
/// A judgement moves a category at least this much, even on a phrase that says nothing by
/// itself ("a terrible chair", "great lighting").
const JUDGEMENT_POINTS: f32 = 2.0;

/// Longest quote of the user's words in a comment, in characters.
const MAX_QUOTE_CHARS: usize = 60;

/// How the words around a phrase qualify it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Polarity {
    Plain,
    Negated,
    /// Judged bad ("terrible", "cheap", "is awful").
    Pejorative,
    /// Judged good ("great", "love my").
    Appreciative,
}

/// One phrase of the lexicon found in the description.
#[derive(Debug, Clone)]
pub(super) struct Mention {
    pub cue: &'static Cue,
    /// The cue's place in the lexicon (the same cue said twice counts once).
    pub cue_index: usize,
    /// The phrase's own tokens.
    pub tokens: Range<usize>,
    /// The numbers of the phrase (`27` of `27 inch`; `2560` and `1440` of `2560 x 1440`).
    pub numbers: Vec<f32>,
    pub polarity: Polarity,
    pub intensity: f32,
    /// The user's own words: the phrase with its negator, intensifier or judgement.
    pub quote: String,
    /// Negated by a word before it (only those reach on along a list, "no dishes, cans or trash").
    negated_before: bool,
}

impl Mention {
    /// What this mention does to `category`, in points; `None` when it says nothing about it.
    pub fn points(&self, category: Category) -> Option<f32> {
        let weight = self.cue.weight(category)?;
        let points = match self.polarity {
            Polarity::Plain => weight * self.intensity,
            Polarity::Negated if self.intensity > 1.0 => -weight * NEGATED_STRONG_FACTOR,
            Polarity::Negated => -weight * self.intensity,
            // A judgement decides the sign of a neutral or good phrase; a bad phrase stays bad
            // ("a great mess" is still a mess).
            Polarity::Pejorative if weight >= 0.0 => -weight.max(JUDGEMENT_POINTS) * self.intensity,
            Polarity::Appreciative if weight >= 0.0 => weight.max(JUDGEMENT_POINTS) * self.intensity,
            Polarity::Pejorative | Polarity::Appreciative => weight * self.intensity,
        };
        Some(points)
    }

    pub fn is_negated(&self) -> bool {
        self.polarity == Polarity::Negated
    }
}

/// A phrase of the lexicon split into words, and the cue it belongs to.
struct Phrase {
    cue_index: usize,
    words: Vec<&'static str>,
}

/// The phrases by their first word (`#` for a number), longest first.
static PHRASES: LazyLock<BTreeMap<&'static str, Vec<Phrase>>> = LazyLock::new(|| {
    let mut index: BTreeMap<&'static str, Vec<Phrase>> = BTreeMap::new();
    for (cue_index, cue) in CUES.iter().enumerate() {
        for phrase in cue.phrases {
            let words: Vec<&'static str> = phrase.split(' ').collect();
            if let Some(&first) = words.first() {
                index.entry(first).or_default().push(Phrase { cue_index, words });
            }
        }
    }
    for phrases in index.values_mut() {
        // Longest first; the lexicon's order breaks ties (sort_by_key is stable).
        phrases.sort_by_key(|p| std::cmp::Reverse(p.words.len()));
    }
    index
});

/// Every phrase of the lexicon in `tokens`, in order, none overlapping, each qualified by the
/// words around it. `description` is the text the tokens came from (for quotes).
pub(super) fn find(tokens: &[Token], description: &str) -> Vec<Mention> {
    let found = match_phrases(tokens);
    let mut owner = vec![false; tokens.len()];
    for (_, range) in &found {
        owner[range.clone()].iter_mut().for_each(|owned| *owned = true);
    }
    let context = Context { tokens, owner: &owner, description };
    let mut mentions: Vec<Mention> =
        found.into_iter().map(|(cue_index, range)| context.qualify(cue_index, range)).collect();
    carry_negation_along_lists(tokens, &mut mentions);
    mentions
}

/// The longest phrase starting at each token, left to right.
fn match_phrases(tokens: &[Token]) -> Vec<(usize, Range<usize>)> {
    let mut found = Vec::new();
    let mut at = 0;
    while at < tokens.len() {
        let key = if tokens[at].number().is_some() { "#" } else { tokens[at].text.as_str() };
        let matched = PHRASES
            .get(key)
            .and_then(|phrases| phrases.iter().find(|p| phrase_at(tokens, at, &p.words)))
            .map(|p| (p.cue_index, at..at + p.words.len()));
        match matched {
            Some((cue_index, range)) => {
                at = range.end;
                found.push((cue_index, range));
            }
            None => at += 1,
        }
    }
    found
}

fn phrase_at(tokens: &[Token], at: usize, words: &[&str]) -> bool {
    tokens.get(at..at + words.len()).is_some_and(|window| {
        window.iter().zip(words).all(
            |(token, &word)| {
                if word == "#" { token.number().is_some() } else { token.text == word }
            },
        )
    })
}

/// What [`Context::qualify`] needs to look around a phrase.
struct Context<'a> {
    tokens: &'a [Token],
    /// Whether each token belongs to a phrase (a qualifier never reaches across another phrase).
    owner: &'a [bool],
    description: &'a str,
}

impl Context<'_> {
    fn qualify(&self, cue_index: usize, range: Range<usize>) -> Mention {
        let numbers = self.tokens[range.clone()].iter().filter_map(Token::number).collect();
        let before = self.words_before(range.start);
        let (polarity, quote_end) = if before.polarity == Polarity::Plain {
            self.words_after(range.end).map_or((Polarity::Plain, range.end), |(p, end)| (p, end + 1))
        } else {
            (before.polarity, range.end)
        };
        let quote_start = before.quote_start.unwrap_or(range.start);
        Mention {
            cue: &CUES[cue_index],
            cue_index,
            numbers,
            polarity,
            intensity: before.intensity,
            quote: self.quote(quote_start..quote_end),
            negated_before: before.polarity == Polarity::Negated,
            tokens: range,
        }
    }

    /// Negator, intensifier and judgement in the few words before the phrase at `start`.
    fn words_before(&self, start: usize) -> Before {
        let mut before = Before { polarity: Polarity::Plain, intensity: 1.0, quote_start: None };
        let mut judgement = None;
        let mut negated = false;
        for distance in 1..=NEGATION_REACH.min(start) {
            let at = start - distance;
            let token = &self.tokens[at];
            if token.is_break() || self.owner[at] {
                break;
            }
            let word = token.text.as_str();
            let near = distance <= MODIFIER_REACH;
            if near && lexicon::STRONGER.contains(&word) {
                before.intensity = STRONGER_FACTOR;
            } else if near && lexicon::WEAKER.contains(&word) {
                before.intensity = WEAKER_FACTOR;
            } else if near && lexicon::PEJORATIVES.contains(&word) {
                judgement = judgement.or(Some(Polarity::Pejorative));
            } else if near && lexicon::APPRECIATIVES.contains(&word) {
                judgement = judgement.or(Some(Polarity::Appreciative));
            } else if lexicon::NEGATORS.contains(&word) {
                negated = true;
                before.quote_start = Some(at);
                break;
            } else if lexicon::CLAUSE_WORDS.contains(&word) {
                break;
            } else {
                continue;
            }
            before.quote_start = Some(self.with_article(at));
        }
        before.polarity = match (negated, judgement) {
            // "not a great chair" is a bad sign; "not bad" is neither.
            (true, Some(Polarity::Appreciative)) => Polarity::Pejorative,
            (true, Some(_)) => Polarity::Plain,
            (true, None) => Polarity::Negated,
            (false, Some(judgement)) => judgement,
            (false, None) => Polarity::Plain,
        };
        before
    }

    /// "a bit messy" is quoted with its "a".
    fn with_article(&self, at: usize) -> usize {
        match at.checked_sub(1).map(|previous| self.tokens[previous].text.as_str()) {
            Some("a") if matches!(self.tokens[at].text.as_str(), "bit" | "little") => at - 1,
            _ => at,
        }
    }

    /// A negator or judgement in the few words after a phrase ending at `end`, and where it
    /// is; `None` when there is none.
    fn words_after(&self, end: usize) -> Option<(Polarity, usize)> {
        for at in end..(end + POSTFIX_REACH).min(self.tokens.len()) {
            let token = &self.tokens[at];
            let word = token.text.as_str();
            // "RGB: none" reads on over a colon; any other break ends the phrase's clause.
            if (token.is_break() && word != ":") || self.owner[at] || lexicon::CLAUSE_WORDS.contains(&word) {
                return None;
            }
            let negated = at > end && lexicon::NEGATORS.contains(&self.tokens[at - 1].text.as_str());
            if lexicon::POSTFIX_NEGATORS.contains(&word) {
                return Some((Polarity::Negated, at));
            }
            let judgement = if lexicon::PEJORATIVES.contains(&word) {
                Polarity::Pejorative
            } else if lexicon::APPRECIATIVES.contains(&word) {
                Polarity::Appreciative
            } else {
                continue;
            };
            if self.qualifies_next_phrase(at) {
                // "messy cables, great chair": "great" is the chair's.
                return None;
            }
            return Some(match (negated, judgement) {
                (true, Polarity::Appreciative) => (Polarity::Pejorative, at),
                (true, _) => (Polarity::Plain, at),
                (false, judgement) => (judgement, at),
            });
        }
        None
    }

    /// Whether a phrase starts within [`MODIFIER_REACH`] words after `at`, in the same clause.
    fn qualifies_next_phrase(&self, at: usize) -> bool {
        (at + 1..=at + MODIFIER_REACH)
            .take_while(|&next| next < self.tokens.len())
            .any(|next| self.owner[next])
            && !self.tokens[at + 1..(at + 1 + MODIFIER_REACH).min(self.tokens.len())]
                .iter()
                .any(Token::is_break)
    }

    /// The description's own words for `tokens`, on one line, at most [`MAX_QUOTE_CHARS`].
    fn quote(&self, tokens: Range<usize>) -> String {
        let (Some(first), Some(last)) =
            (self.tokens.get(tokens.start), self.tokens.get(tokens.end.saturating_sub(1)))
        else {
            return String::new();
        };
        let text = self.description.get(first.span.start..last.span.end).unwrap_or_default();
        let words: Vec<&str> = text.split_whitespace().collect();
        let line = words.join(" ");
        if line.chars().count() <= MAX_QUOTE_CHARS {
            line
        } else {
            let mut short: String = line.chars().take(MAX_QUOTE_CHARS - 1).collect();
            short.push('…');
            short
        }
    }
}

/// What the words before a phrase do to it.
struct Before {
    polarity: Polarity,
    intensity: f32,
    /// The first token of the quote, when a qualifier comes before the phrase.
    quote_start: Option<usize>,
}

/// "no dishes, cans or trash": a negation reaches along a list of phrases joined by commas
/// and "or"/"nor" — but only a list with an "or" in it, so that "no cable management, cables
/// everywhere" keeps its second half.
fn carry_negation_along_lists(tokens: &[Token], mentions: &mut [Mention]) {
    let mut first = 0;
    while first < mentions.len() {
        if !mentions[first].negated_before {
            first += 1;
            continue;
        }
        let mut last = first;
        let mut has_or = false;
        while last + 1 < mentions.len() {
            let between = &tokens[mentions[last].tokens.end..mentions[last + 1].tokens.start];
            let joined =
                between.iter().all(|t| t.text == "," || lexicon::LIST_JOINERS.contains(&t.text.as_str()));
            if !joined {
                break;
            }
            has_or |= between.iter().any(|t| lexicon::LIST_OR.contains(&t.text.as_str()));
            last += 1;
        }
        if has_or {
            // The quote shows where the negation came from: "no … trash".
            let negator = mentions[first].quote.split(' ').next().unwrap_or_default().to_owned();
            for mention in &mut mentions[first + 1..=last] {
                if mention.polarity == Polarity::Plain {
                    mention.polarity = Polarity::Negated;
                    mention.quote = format!("{negator} … {}", mention.quote);
                }
            }
        }
        first = last + 1;
    }
}

#[cfg(test)]
mod tests {
    use super::super::tokens::tokenise;
    use super::*;

    fn read(description: &str) -> Vec<(String, Polarity, f32)> {
        find(&tokenise(description), description)
            .into_iter()
            .map(|m| (m.quote, m.polarity, m.intensity))
            .collect()
    }

    fn polarity_of(description: &str, quote: &str) -> Polarity {
        let found = read(description);
        found
            .iter()
            .find(|(q, _, _)| q == quote)
            .map(|(_, p, _)| *p)
            .unwrap_or_else(|| panic!("{quote:?} not found in {found:?}"))
    }

    #[test]
    fn the_longest_phrase_wins() {
        let found = read("cable management and a cable tray");
        let quotes: Vec<_> = found.iter().map(|(q, _, _)| q.as_str()).collect();
        assert_eq!(quotes, ["cable management", "cable tray"]);
    }

    #[test]
    fn negators_flip_what_follows_within_a_few_words() {
        assert_eq!(polarity_of("no cable management", "no cable management"), Polarity::Negated);
        assert_eq!(
            polarity_of("I don't really have any RGB", "don't really have any RGB"),
            Polarity::Negated
        );
        assert_eq!(polarity_of("desk never cleaned", "never cleaned"), Polarity::Negated);
        assert_eq!(polarity_of("it's not clean", "not clean"), Polarity::Negated);
        assert_eq!(polarity_of("without cable management", "without cable management"), Polarity::Negated);
    }

    #[test]
    fn negation_stops_at_a_new_clause() {
        assert_eq!(polarity_of("no RGB, just a desk lamp", "desk lamp"), Polarity::Plain);
        assert_eq!(
            polarity_of("no cable management, cables everywhere", "cables everywhere"),
            Polarity::Plain
        );
        assert_eq!(polarity_of("no RGB but a desk lamp", "desk lamp"), Polarity::Plain);
    }

    #[test]
    fn negation_reaches_along_an_or_list() {
        let description = "no dishes, cans or trash on the desk";
        assert_eq!(polarity_of(description, "no … cans"), Polarity::Negated);
        assert_eq!(polarity_of(description, "no … trash"), Polarity::Negated);
    }

    #[test]
    fn postfix_negators_and_judgements() {
        assert_eq!(polarity_of("cable management: none", "cable management: none"), Polarity::Negated);
        assert_eq!(polarity_of("the lighting is terrible", "lighting is terrible"), Polarity::Pejorative);
        assert_eq!(polarity_of("my chair is not great", "chair is not great"), Polarity::Pejorative);
        assert_eq!(polarity_of("messy cables, great chair", "cables"), Polarity::Plain);
        assert_eq!(polarity_of("messy cables, great chair", "great chair"), Polarity::Appreciative);
    }

    #[test]
    fn intensifiers_scale() {
        assert_eq!(read("very messy")[0].2, STRONGER_FACTOR);
        assert_eq!(read("a bit messy")[0], ("a bit messy".to_owned(), Polarity::Plain, WEAKER_FACTOR));
    }

    #[test]
    fn quotes_are_short_and_on_one_line() {
        let description = format!("{}  very \t messy", "x".repeat(200));
        assert_eq!(read(&description)[0].0, "very messy");
    }
}
