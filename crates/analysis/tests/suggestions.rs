//! Suggestions drawn from the seeded catalogue on both databases: what was seen decides the
//! product of each tier and what its justification says.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use setupiq_analysis::service::suggestions::{self, Suggestion};
use setupiq_analyzer::result::{
    Assessment, CableInventory, CablePlace, Category, CategoryScore, Confidence, Light, Points, Seat, Seen,
    Source, overall_score,
};
use setupiq_test_utils::{TestDb, both_backends};

both_backends!(
    two_setups_with_the_same_scores_get_different_products,
    a_neon_room_gets_no_plant_set,
    a_result_without_facts_keeps_the_catalogue_words,
    a_catalogue_with_products_switched_off_still_gets_every_suggestion,
    an_unseen_chair_gets_no_seating_upgrade,
    a_described_setup_is_told_what_it_describes,
    a_half_point_below_nine_is_suggested_and_shown_as_it_is,
);

/// Monitor Setup, RGB/Lighting and Aesthetic Vibe weak (4, 5, 6), the rest fine, as seen.
fn assessment(seen: Option<Seen>) -> Assessment {
    let score = |category| match category {
        Category::MonitorSetup => 4,
        Category::RgbLighting => 5,
        Category::AestheticVibe => 6,
        _ => 9,
    };
    let category_ratings: Vec<CategoryScore> = Category::ALL
        .iter()
        .map(|&category| CategoryScore {
            category,
            score: Some(Points::whole(score(category))),
            comment: "As seen in the photo.".into(),
            confidence: Some(Confidence::High),
        })
        .collect();
    Assessment {
        overall_score: overall_score(&category_ratings),
        summary: "A desk.".into(),
        category: "Everyday Desk Setup".into(),
        category_ratings,
        cable_inventory: CableInventory::none(),
        seen,
        source: Some(Source::Photo),
    }
}

fn of(suggestions: &[Suggestion], category: Category) -> &Suggestion {
    suggestions.iter().find(|s| s.category == category).unwrap()
}

fn names(s: &Suggestion) -> [&str; 3] {
    [&s.tiers.budget, &s.tiers.balanced, &s.tiers.premium].map(|p| p.as_ref().unwrap().name.as_str())
}

fn two_setups_with_the_same_scores_get_different_products(db: TestDb) {
    let mut conn = db.conn();
    let dual = Seen {
        monitors: Some(2),
        laptops: Some(0),
        uneven_monitors: true,
        light: Some(Light::White),
        dark_room: true,
        plants: Some(0),
        seat: Some(Seat::DeskChair),
        loose_cables: Some(3),
        cables_mostly: Some(CablePlace::UnderDesk),
        ..Seen::default()
    };
    let laptop = Seen {
        monitors: Some(0),
        laptops: Some(1),
        light: Some(Light::Accent),
        light_colours: vec!["blue".into()],
        plants: Some(2),
        ..Seen::default()
    };
    let for_dual = suggestions::suggest(&mut conn, &assessment(Some(dual))).unwrap();
    let for_laptop = suggestions::suggest(&mut conn, &assessment(Some(laptop))).unwrap();

    let (dual_monitor, laptop_monitor) =
        (of(&for_dual, Category::MonitorSetup), of(&for_laptop, Category::MonitorSetup));
    assert!(names(dual_monitor).iter().all(|n| n.contains("Dual")), "{:?}", names(dual_monitor));
    assert!(
        names(laptop_monitor)[..2].iter().all(|n| n.contains("Laptop Stand")),
        "{:?}",
        names(laptop_monitor)
    );
    // The description says what was seen, the pick what it changes.
    assert_eq!(dual_monitor.description, "4/10. Your two monitors sit at different heights.");
    assert!(
        dual_monitor
            .product_recommendation
            .as_ref()
            .unwrap()
            .justification
            .starts_with("A dual monitor arm levels them"),
        "{:?}",
        dual_monitor.product_recommendation
    );
    assert_eq!(laptop_monitor.description, "4/10. Your laptop is the only screen, down at desk height.");
    assert!(
        laptop_monitor
            .product_recommendation
            .as_ref()
            .unwrap()
            .justification
            .starts_with("A laptop stand raises"),
        "{:?}",
        laptop_monitor.product_recommendation
    );
    for category in [Category::MonitorSetup, Category::RgbLighting, Category::AestheticVibe] {
        let (a, b) = (of(&for_dual, category), of(&for_laptop, category));
        assert_ne!(names(a), names(b), "{category}");
    }
    // A dark room without coloured light gets an LED strip; a room with plants no more plants.
    assert!(names(of(&for_dual, Category::RgbLighting))[0].contains("LED Strip"));
    assert!(
        !names(of(&for_laptop, Category::AestheticVibe)).iter().any(|n| n.contains("Plant")),
        "{:?}",
        names(of(&for_laptop, Category::AestheticVibe))
    );
}

fn a_neon_room_gets_no_plant_set(db: TestDb) {
    let mut conn = db.conn();
    let neon = Seen {
        monitors: Some(1),
        laptops: Some(0),
        light: Some(Light::Neon),
        light_colours: vec!["purple".into(), "pink".into()],
        dark_room: true,
        plants: Some(0),
        ..Seen::default()
    };
    let suggested = suggestions::suggest(&mut conn, &assessment(Some(neon))).unwrap();
    let vibe = of(&suggested, Category::AestheticVibe);
    assert!(!names(vibe).iter().any(|n| n.contains("Plant")), "{:?}", names(vibe));
    assert!(
        vibe.description.ends_with("Your setup glows with saturated purple and pink light."),
        "{}",
        vibe.description
    );
    // Already lit in colour: a neutral light to work by, not another strip.
    let lighting = of(&suggested, Category::RgbLighting);
    assert!(
        !names(lighting).iter().any(|n| n.contains("LED Strip") || n.contains("Neon")),
        "{:?}",
        names(lighting)
    );
}

fn a_result_without_facts_keeps_the_catalogue_words(db: TestDb) {
    let mut conn = db.conn();
    let suggested = suggestions::suggest(&mut conn, &assessment(None)).unwrap();
    let monitor = of(&suggested, Category::MonitorSetup);
    assert_eq!(monitor.description, "4/10: As seen in the photo.");
    let catalogue = setupiq_affiliate::service::recommend(&mut conn, "Monitor Setup", None).unwrap();
    assert_eq!(
        monitor.tiers.budget.as_ref().unwrap().name,
        catalogue.budget[0].name,
        "the best-rated of the tier"
    );
    assert_eq!(monitor.tiers.budget.as_ref().unwrap().justification, catalogue.budget[0].justification);
}

/// Link checks switch products off. With a tier gone the nearest active product of the
/// category is the pick; with the whole catalogue off every suggestion is still made, without
/// a product, and says what to improve.
fn a_catalogue_with_products_switched_off_still_gets_every_suggestion(db: TestDb) {
    use setupiq_affiliate::service::link_health;
    let mut conn = db.conn();
    let weak = assessment(None);
    let before = suggestions::suggest(&mut conn, &weak).unwrap();
    let monitors = setupiq_affiliate::service::recommend(&mut conn, "Monitor Setup", None).unwrap();
    for product in monitors.budget.iter().chain(&monitors.balanced) {
        link_health::set_active(&mut conn, product.id, false).unwrap();
    }
    let without_cheap_monitors = suggestions::suggest(&mut conn, &weak).unwrap();
    let monitor = of(&without_cheap_monitors, Category::MonitorSetup);
    assert!(monitor.tiers.budget.is_none() && monitor.tiers.balanced.is_none(), "{monitor:?}");
    let pick = monitor.product_recommendation.as_ref().expect("the premium tier is left");
    assert_eq!(Some(pick), monitor.tiers.premium.as_ref());

    for product in link_health::products(&mut conn, None, None).unwrap() {
        link_health::set_active(&mut conn, product.id, false).unwrap();
    }
    let without_catalogue = suggestions::suggest(&mut conn, &weak).unwrap();
    let categories = |suggested: &[Suggestion]| {
        let mut categories: Vec<Category> = suggested.iter().map(|s| s.category).collect();
        categories.sort_by_key(|c| c.name());
        categories
    };
    assert_eq!(categories(&without_catalogue), categories(&before), "the same categories are suggested");
    // Nothing to weigh by price: the weakest first.
    assert_eq!(without_catalogue[0].category, Category::MonitorSetup);
    for suggestion in &without_catalogue {
        assert_eq!(suggestion.product_recommendation, None);
        assert!(
            suggestion
                .description
                .starts_with(&format!("{}/10: ", weak.score_of(suggestion.category).unwrap()))
        );
    }
}

/// No chair in the photo: however weak the rest, no seating upgrade, neither first nor to
/// fill up the list.
fn an_unseen_chair_gets_no_seating_upgrade(db: TestDb) {
    let mut conn = db.conn();
    let mut no_chair = assessment(Some(Seen { seat: Some(Seat::Nothing), ..Seen::default() }));
    for rating in &mut no_chair.category_ratings {
        rating.score = Some(Points::whole(9));
        if rating.category == Category::ChairComfort {
            rating.score = None;
            rating.comment = "No chair in view: comfort can't be judged from this photo.".into();
            rating.confidence = Some(Confidence::Low);
        }
    }
    no_chair.validate().unwrap();
    assert_eq!(suggestions::suggest(&mut conn, &no_chair).unwrap(), Vec::new(), "nothing seen is weak");
    no_chair.category_ratings[1].score = Some(Points::whole(4)); // RGB/Lighting
    let suggested = suggestions::suggest(&mut conn, &no_chair).unwrap();
    let categories: Vec<Category> = suggested.iter().map(|s| s.category).collect();
    assert_eq!(categories, [Category::RgbLighting]);
}

/// The embedded text analyzer's result of a description: every suggestion speaks of what the
/// owner describes, never of a photo, and RGB strips are never "a touch of light".
fn a_described_setup_is_told_what_it_describes(db: TestDb) {
    let mut conn = db.conn();
    for description in [
        "RGB strips behind the monitor, purple underglow, RGB fans in a glass case, no cable management.",
        "A laptop on a messy desk, no plants, cables tidy in a tray, an LED strip behind the desk.",
        "A monitor on a plain desk with a lamp, everything neat, cable management done.",
    ] {
        let described = setupiq_analyzer::text::assess(description).unwrap();
        assert_eq!(described.source, Some(Source::Description));
        let suggested = suggestions::suggest(&mut conn, &described).unwrap();
        assert!(suggested.iter().all(|s| s.category != Category::ChairComfort), "no chair was mentioned");
        for suggestion in &suggested {
            let products = [&suggestion.tiers.budget, &suggestion.tiers.balanced, &suggestion.tiers.premium];
            let texts = products.into_iter().flatten().map(|p| p.justification.as_str());
            for text in texts.chain([suggestion.description.as_str()]) {
                for photo_word in ["photo", "in view", "visible", "touch of"] {
                    assert!(!text.contains(photo_word), "{description:?}: {photo_word:?} in {text:?}");
                }
            }
        }
    }
}

/// 8.5 is below the 9 that is good enough: it gets a suggestion, which quotes its half point;
/// 9 and above get none, and the half points order the list.
fn a_half_point_below_nine_is_suggested_and_shown_as_it_is(db: TestDb) {
    let mut conn = db.conn();
    let mut a = assessment(None);
    for rating in &mut a.category_ratings {
        rating.score = Some(match rating.category {
            Category::CableManagement => Points::halves(17), // 8.5
            Category::MonitorSetup => Points::halves(13),    // 6.5
            Category::RgbLighting => Points::whole(7),
            _ => Points::whole(9),
        });
    }
    a.overall_score = overall_score(&a.category_ratings);
    a.validate().unwrap();
    let suggested = suggestions::suggest(&mut conn, &a).unwrap();
    let categories: Vec<Category> = suggested.iter().map(|s| s.category).collect();
    assert_eq!(categories, [Category::MonitorSetup, Category::RgbLighting, Category::CableManagement]);
    assert!(of(&suggested, Category::MonitorSetup).description.starts_with("6.5/10"), "{suggested:?}");
    assert!(of(&suggested, Category::RgbLighting).description.starts_with("7/10"), "{suggested:?}");
    assert!(of(&suggested, Category::CableManagement).description.starts_with("8.5/10"), "{suggested:?}");
}
