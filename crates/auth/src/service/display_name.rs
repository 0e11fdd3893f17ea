//! Display names (DESIGN.md §5): what others see beside a member's posts, so it must show
//! what it says. Stored trimmed and in NFC (one spelling of "é", not two), and without
//! format characters (Unicode general category Cf: bidi controls that turn `\u{202e}admin`
//! around on screen, zero-width spaces that make two names look alike) or code points Unicode
//! has not assigned (shown as boxes, or as anything a later font decides). The one format
//! character kept is the zero-width joiner between two emoji, which draws 👩‍💻 as one.

use unicode_normalization::UnicodeNormalization;
use unicode_properties::{GeneralCategory, UnicodeEmoji, UnicodeGeneralCategory};

/// What the user reads when the name holds such a character (the specification's "Name …"
/// style of the other display-name messages).
pub const HIDDEN_CHARACTERS: &str = "Name cannot contain invisible, text-direction or unassigned characters.";

/// The name as it is stored: trimmed and in NFC; `None` when it holds a format or an
/// unassigned character.
pub fn normalize(raw: &str) -> Option<String> {
    let name: Vec<char> = raw.trim().nfc().collect();
    let shows_what_it_says = name.iter().enumerate().all(|(i, &c)| match c.general_category() {
        GeneralCategory::Unassigned => false,
        GeneralCategory::Format => is_emoji_joiner(&name, i),
        _ => true,
    });
    shows_what_it_says.then(|| name.into_iter().collect())
}

/// Whether `name[i]` is a zero-width joiner between two emoji (an emoji's presentation
/// selector may sit before it: ❤️‍🔥).
fn is_emoji_joiner(name: &[char], i: usize) -> bool {
    const JOINER: char = '\u{200d}';
    const EMOJI_PRESENTATION: char = '\u{fe0f}';
    // Digits, `#` and `*` are emoji too (keycaps); a joiner between them shows nothing.
    let pictograph = |c: char| !c.is_ascii() && c.is_emoji_char();
    let before = name[..i].iter().rev().find(|&&c| c != EMOJI_PRESENTATION);
    name[i] == JOINER
        && before.is_some_and(|&c| pictograph(c))
        && name.get(i + 1).is_some_and(|&c| pictograph(c))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_that_show_what_they_say_are_kept_trimmed_and_composed() {
        for (raw, stored) in [
            ("  Pixel Pete 🎮 ", "Pixel Pete 🎮"),
            ("Rig Queen 👑", "Rig Queen 👑"),
            ("Jose\u{301}", "José"),
            ("Zoë ß 東京 مرحبا", "Zoë ß 東京 مرحبا"),
            ("dev 👩\u{200d}💻", "dev 👩\u{200d}💻"),
            ("on ❤\u{fe0f}\u{200d}🔥", "on ❤\u{fe0f}\u{200d}🔥"),
            ("family 👨\u{200d}👩\u{200d}👧", "family 👨\u{200d}👩\u{200d}👧"),
        ] {
            assert_eq!(normalize(raw).as_deref(), Some(stored), "{raw:?}");
        }
    }

    #[test]
    fn bidi_controls_zero_width_and_unassigned_characters_are_refused() {
        for raw in [
            "\u{202e}admin\u{200b}",
            "adm\u{200b}in",
            "\u{2066}Pete\u{2069}",
            "\u{200f}Pete",
            "Pe\u{ad}te",
            "\u{feff}Pete",
            "Pete\u{200d}",
            "a\u{200d}b",
            "1\u{200d}2",
            "👩\u{200d}",
            "Pete \u{e0001}",
            "Pete \u{378}",
            "Pete \u{10ffff}",
        ] {
            assert_eq!(normalize(raw), None, "{raw:?}");
        }
    }
}
