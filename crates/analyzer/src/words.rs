//! The small pieces of English every written comment and justification uses: "a" or "an",
//! "a, b and c", a capital first letter.

/// "a" or "an" by how `next` sounds: "an apple", "an IPS monitor", "an RGB lamp", "an LED",
/// "an 8-inch", "an 18-inch", but "a USB hub", "a 27-inch monitor".
pub fn article(next: &str) -> &'static str {
    let mut letters = next.chars();
    let first = letters.next().unwrap_or(' ');
    let initialism = first.is_ascii_uppercase() && letters.next().is_some_and(|c| c.is_ascii_uppercase());
    let vowel_sound = if first.is_ascii_digit() {
        next.starts_with('8') || next.starts_with("11") || next.starts_with("18")
    } else if initialism {
        // Letters whose names start with a vowel sound: "an F", "an M", "an S".
        "AEFHILMNORSX".contains(first)
    } else {
        "aeiouAEIOU".contains(first)
    };
    if vowel_sound { "an" } else { "a" }
}

/// "a", "a and b", "a, b and c".
pub fn join<S: AsRef<str>>(parts: &[S]) -> String {
    match parts {
        [] => String::new(),
        [one] => one.as_ref().to_owned(),
        [init @ .., last] => {
            let init: Vec<&str> = init.iter().map(AsRef::as_ref).collect();
            format!("{} and {}", init.join(", "), last.as_ref())
        }
    }
}

/// `text` with its first letter in capitals.
pub fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn articles_go_by_sound() {
        for (next, expected) in [
            ("IPS monitor", "an"),
            ("27-inch monitor", "a"),
            ("8-inch tablet", "an"),
            ("18-inch arm", "an"),
            ("old monitor", "an"),
            ("monitor", "a"),
            ("RGB Gaming Battlestation", "an"),
            ("RGB ambient lamp", "an"),
            ("LED strip", "an"),
            ("USB hub", "a"),
            ("apple", "an"),
            ("book", "a"),
        ] {
            assert_eq!(article(next), expected, "{next}");
        }
    }

    #[test]
    fn lists_and_capitals() {
        assert_eq!(join::<&str>(&[]), "");
        assert_eq!(join(&["a"]), "a");
        assert_eq!(join(&["a", "b", "c"]), "a, b and c");
        assert_eq!(capitalised("no loose cables"), "No loose cables");
        assert_eq!(capitalised(""), "");
    }
}
