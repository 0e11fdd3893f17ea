//! The facts a description states, for suggestions: what [`crate::result::Seen`] can say
//! from the phrases understood. A description is silent on most things, so most facts stay
//! unknown; nothing here changes a score.

use super::lexicon::Role;
use super::mentions::Mention;
use super::monitor::Monitors;
use crate::result::{CableInventory, CablePlace, Category, Light, Seat, Seen};

/// Two or more kinds of coloured light ("RGB strips and a Nanoleaf wall") make the room's
/// colour rather than an accent.
const NEON_CUES: usize = 2;

pub(super) fn read(monitors: &Monitors, mentions: &[Mention], inventory: &CableInventory) -> Seen {
    let said = |role: Role| mentions.iter().filter(move |m| m.cue.role == role);
    let points = |category: Category| -> Option<f32> {
        let all: Vec<f32> = mentions.iter().filter_map(|m| m.points(category)).collect();
        (!all.is_empty()).then(|| all.iter().sum())
    };

    let mut coloured: Vec<usize> =
        said(Role::ColouredLight).filter(|m| !m.is_negated()).map(|m| m.cue_index).collect();
    coloured.sort_unstable();
    coloured.dedup();
    let light = match coloured.len() {
        0 if points(Category::RgbLighting).is_some() => Some(Light::White),
        0 => None,
        n if n >= NEON_CUES => Some(Light::Neon),
        _ => Some(Light::Accent),
    };

    // The most telling seat said: a gaming chair over a chair, a chair over a couch.
    let seat = mentions
        .iter()
        .filter(|m| !m.is_negated())
        .filter_map(|m| match m.cue.role {
            Role::Seat(seat) => Some(seat),
            _ => None,
        })
        .max_by_key(|seat| match seat {
            Seat::GamingChair => 3,
            Seat::DeskChair => 2,
            Seat::Couch => 1,
            Seat::Nothing => 0,
        });

    let plants = match (said(Role::Plants).any(|m| !m.is_negated()), said(Role::Plants).next()) {
        (true, _) => Some(1),
        (false, Some(_)) => Some(0),
        (false, None) => None,
    };

    let untidy: Vec<CablePlace> =
        inventory.cables.iter().filter(|c| !c.is_aesthetic).filter_map(|c| place(&c.location)).collect();
    let loose_listed = inventory.cables.iter().filter(|c| !c.is_aesthetic).count();
    let loose_cables = points(Category::CableManagement).map(|p| {
        let loose = u32::try_from(loose_listed).unwrap_or(u32::MAX);
        // "No cable management" names no cable, but there are some.
        if p < 0.0 { loose.max(1) } else { loose }
    });

    Seen {
        monitors: monitors.mentioned().then(|| if monitors.laptop_only() { 0 } else { monitors.count() }),
        laptops: monitors.mentioned().then(|| u8::from(monitors.has_laptop())),
        uneven_monitors: false,
        stacked_monitors: false,
        on_arms: monitors.on_arms(),
        loose_cables,
        cables_mostly: most_common(&untidy),
        seat,
        dark_room: said(Role::DarkRoom).any(|m| !m.is_negated()),
        light,
        light_colours: Vec::new(),
        plants,
        greenery: false,
        clutter: Vec::new(),
        busy_desk: points(Category::DeskCleanliness).is_some_and(|p| p < 0.0),
    }
}

/// Where a cable the inventory lists runs, when its location names a place.
fn place(location: &str) -> Option<CablePlace> {
    if location.starts_with("under") || location.contains("floor") {
        Some(CablePlace::UnderDesk)
    } else if location.starts_with("behind") {
        Some(CablePlace::BehindMonitor)
    } else if location.starts_with("on the desk") || location == "everywhere" {
        Some(CablePlace::OnDesk)
    } else {
        None
    }
}

fn most_common(places: &[CablePlace]) -> Option<CablePlace> {
    // Reversed, so that a tie goes to the place listed first (`max_by_key` keeps the last).
    [CablePlace::UnderDesk, CablePlace::OnDesk, CablePlace::BehindMonitor]
        .into_iter()
        .rev()
        .map(|place| (places.iter().filter(|&&p| p == place).count(), place))
        .filter(|&(n, _)| n > 0)
        .max_by_key(|&(n, _)| n)
        .map(|(_, place)| place)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use crate::result::{CablePlace, Light, Seat};

    fn seen(description: &str) -> crate::result::Seen {
        crate::text::assess(description).unwrap().seen.unwrap()
    }

    #[test]
    fn a_description_states_what_it_names_and_nothing_else() {
        let dual =
            seen("Two 27-inch monitors on arms, a Secretlab Titan and RGB strips with a Nanoleaf wall.");
        assert_eq!(dual.monitors, Some(2));
        assert!(dual.on_arms);
        assert_eq!(dual.seat, Some(Seat::GamingChair));
        assert_eq!(dual.light, Some(Light::Neon));
        assert_eq!(dual.plants, None, "plants aren't mentioned");
        assert_eq!(dual.loose_cables, None, "cables aren't mentioned");

        let laptop = seen(
            "Just a laptop on the kitchen table, no RGB, a few plants, cables everywhere under the desk.",
        );
        assert_eq!((laptop.monitors, laptop.laptops), (Some(0), Some(1)));
        assert_eq!(laptop.light, Some(Light::White));
        assert_eq!(laptop.plants, Some(1));
        assert!(laptop.loose_cables.is_some_and(|n| n >= 1), "{laptop:?}");
        assert_eq!(laptop.seat, None);

        let dark = seen("A monitor in a dark room, messy desk, sitting on the couch.");
        assert!(dark.dark_room && dark.busy_desk);
        assert_eq!(dark.seat, Some(Seat::Couch));
        assert_eq!(super::place("under the desk"), Some(CablePlace::UnderDesk));
        assert_eq!(
            super::most_common(&[CablePlace::OnDesk, CablePlace::UnderDesk]),
            Some(CablePlace::UnderDesk),
            "a tie goes to under the desk"
        );

        let repeated = seen("RGB strips, more RGB strips and RGB strips again, on one monitor.");
        assert_eq!(repeated.light, Some(Light::Accent), "one kind of coloured light, said three times");
    }
}
