//! Splitting a description into lower-case words, numbers and clause breaks.
//!
//! The lexicon is written against this normal form, so the rules here decide what the
//! lexicon can match:
//!
//! - letters and digits split where they meet: `165Hz` -> `165 hz`, `1440p` -> `1440 p`,
//!   `4k` -> `4 k`; a decimal point between digits stays (`27.5`);
//! - apostrophes inside words disappear (`don't` -> `dont`), hyphens separate
//!   (`27-inch` -> `27 inch`, `clutter-free` -> `clutter free`);
//! - an inch mark right after a number (`27"`, `27''`, `27”`) becomes the word `inch`;
//! - `&` and `+` are the word `and`;
//! - sentence and clause punctuation (and a line break) is kept as a break: negation never
//!   crosses it; every other symbol only separates words.

use std::ops::Range;

/// What a token is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    Word,
    Number,
    /// Punctuation between clauses, or a line break.
    Break,
}

#[derive(Debug, Clone, PartialEq)]
pub(super) struct Token {
    /// Lower-case normal form (a break keeps its character).
    pub text: String,
    pub kind: Kind,
    /// Where it came from in the description, in bytes (for quoting the user's own words).
    pub span: Range<usize>,
}

impl Token {
    pub fn is_break(&self) -> bool {
        self.kind == Kind::Break
    }

    /// The numeric value of a number token.
    pub fn number(&self) -> Option<f32> {
        if self.kind != Kind::Number {
            return None;
        }
        self.text.parse::<f32>().ok().filter(|n| n.is_finite())
    }
}

/// Characters that end a sentence or a clause.
const BREAKS: &[char] = &['.', '!', '?', ';', '\n', ',', ':', '(', ')', '[', ']', '/', '|'];
/// Inch marks that may follow a number; two apostrophes (`27''`) count too.
const INCH_MARKS: &[char] = &['"', '”', '″', '“'];
const APOSTROPHES: &[char] = &['\'', '’'];

/// Splits `description` into tokens.
pub(super) fn tokenise(description: &str) -> Vec<Token> {
    let mut tokens = Vec::new();
    let mut current: Option<(String, Kind, usize)> = None;
    let mut chars = description.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        let next = chars.peek().map(|&(_, n)| n);
        let end = at + c.len_utf8();
        let class = if c.is_ascii_digit() {
            Some(Kind::Number)
        } else if c.is_alphanumeric() {
            Some(Kind::Word)
        } else {
            None
        };
        if let Some(class) = class {
            match &mut current {
                Some((text, kind, _)) if *kind == class => text.extend(c.to_lowercase()),
                _ => {
                    finish(&mut tokens, current.take(), at);
                    current = Some((c.to_lowercase().collect(), class, at));
                }
            }
            continue;
        }
        let in_number = matches!(current, Some((_, Kind::Number, _)));
        let in_word = matches!(current, Some((_, Kind::Word, _)));
        let digit_follows = next.is_some_and(|n| n.is_ascii_digit());
        let letter_follows = next.is_some_and(char::is_alphanumeric);
        if c == '.' && in_number && digit_follows {
            // A decimal point: the number goes on.
            if let Some((text, _, _)) = &mut current {
                text.push('.');
            }
            continue;
        }
        if APOSTROPHES.contains(&c) && in_word && letter_follows {
            // "don't" -> "dont": the apostrophe is dropped, the word goes on.
            continue;
        }
        finish(&mut tokens, current.take(), at);
        let last_is_number = tokens.last().is_some_and(|t: &Token| t.kind == Kind::Number);
        if last_is_number && INCH_MARKS.contains(&c) {
            tokens.push(Token { text: "inch".to_owned(), kind: Kind::Word, span: at..end });
        } else if last_is_number && c == '\'' && next == Some('\'') {
            chars.next();
            tokens.push(Token { text: "inch".to_owned(), kind: Kind::Word, span: at..end + 1 });
        } else if c == '&' || c == '+' {
            tokens.push(Token { text: "and".to_owned(), kind: Kind::Word, span: at..end });
        } else if BREAKS.contains(&c) {
            tokens.push(Token { text: c.to_string(), kind: Kind::Break, span: at..end });
        }
    }
    finish(&mut tokens, current, description.len());
    tokens
}

fn finish(tokens: &mut Vec<Token>, current: Option<(String, Kind, usize)>, end: usize) {
    if let Some((text, kind, start)) = current {
        tokens.push(Token { text, kind, span: start..end });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(description: &str) -> Vec<String> {
        tokenise(description).into_iter().map(|t| t.text).collect()
    }

    #[test]
    fn specs_split_into_numbers_and_units() {
        assert_eq!(texts("27\" 1440p 165Hz"), ["27", "inch", "1440", "p", "165", "hz"]);
        assert_eq!(texts("a 27-inch 4K"), ["a", "27", "inch", "4", "k"]);
        assert_eq!(texts("27.5'' and 24”"), ["27.5", "inch", "and", "24", "inch"]);
    }

    #[test]
    fn words_are_lower_case_without_apostrophes() {
        assert_eq!(texts("I DON'T have RGB & stuff."), ["i", "dont", "have", "rgb", "and", "stuff", "."]);
        assert_eq!(texts("clutter-free, tidy"), ["clutter", "free", ",", "tidy"]);
    }

    #[test]
    fn punctuation_and_line_breaks_are_breaks() {
        let tokens = tokenise("a, b. c\nd - e");
        let kinds: Vec<_> = tokens.iter().map(|t| t.kind).collect();
        let (word, stop) = (Kind::Word, Kind::Break);
        assert_eq!(kinds, [word, stop, word, stop, word, stop, word, word]);
    }

    #[test]
    fn spans_point_into_the_original() {
        let text = "Très  propre — 27\"";
        for token in tokenise(text) {
            assert!(text.get(token.span.clone()).is_some(), "{token:?}");
        }
    }
}
