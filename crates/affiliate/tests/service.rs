//! The seeded catalogue and click tracking on both databases.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use chrono::Utc;
use diesel::prelude::*;
use setupiq_affiliate::AffiliateError;
use setupiq_affiliate::service::{self, ChairStyle, NewClick};
use setupiq_db::schema::affiliate_clicks;
use setupiq_test_utils::{TestDb, both_backends, fixtures};

const CATEGORIES: [&str; 6] = [
    "Cable Management",
    "RGB/Lighting",
    "Desk Cleanliness",
    "Monitor Setup",
    "Chair & Comfort",
    "Aesthetic Vibe",
];

both_backends!(
    every_category_has_three_tiers_cheapest_to_dearest,
    chairs_come_in_a_gaming_and_an_ergonomic_trio,
    unknown_categories_get_the_generic_trio,
    clicks_are_recorded_for_known_products_only,
    trending_lists_the_three_best_rated,
);

fn every_category_has_three_tiers_cheapest_to_dearest(db: TestDb) {
    let mut conn = db.conn();
    for category in CATEGORIES {
        let rec = service::recommend(&mut conn, category, None).unwrap();
        assert_eq!(
            (rec.budget.tier.as_str(), rec.balanced.tier.as_str(), rec.premium.tier.as_str()),
            ("budget", "balanced", "premium")
        );
        assert!(
            rec.budget.price_cents < rec.balanced.price_cents
                && rec.balanced.price_cents < rec.premium.price_cents,
            "{category}"
        );
        for product in [&rec.budget, &rec.balanced, &rec.premium] {
            assert!(
                (1999..=139_500).contains(&product.price_cents),
                "{}: {}",
                product.name,
                product.price_cents
            );
            assert!(product.link.starts_with("https://") && product.link.contains("tag=setupiq-20"));
            assert!((0.0..=5.0).contains(&product.rating));
        }
    }
}

fn chairs_come_in_a_gaming_and_an_ergonomic_trio(db: TestDb) {
    let mut conn = db.conn();
    let gaming = service::recommend(&mut conn, "Chair & Comfort", Some(ChairStyle::Gaming)).unwrap();
    let ergonomic = service::recommend(&mut conn, "Chair & Comfort", Some(ChairStyle::Ergonomic)).unwrap();
    assert_eq!(gaming.premium.name, "Secretlab Titan Evo");
    assert_eq!(ergonomic.premium.name, "Herman Miller Embody");
    assert_eq!(ergonomic.premium.price_cents, 139_500);
    assert_eq!(service::recommend(&mut conn, "Chair & Comfort", None).unwrap(), gaming);
}

fn unknown_categories_get_the_generic_trio(db: TestDb) {
    let mut conn = db.conn();
    let rec = service::recommend(&mut conn, "Streaming Gear", None).unwrap();
    assert_eq!(rec.budget.category, "Accessories");
    assert_eq!(rec.balanced.category, "Keyboard");
    assert_eq!(rec.premium.category, "Headset");
}

fn clicks_are_recorded_for_known_products_only(db: TestDb) {
    let mut conn = db.conn();
    let me = fixtures::account(&mut conn, "clicker@example.com");
    let product = service::recommend(&mut conn, "Monitor Setup", None).unwrap().balanced;
    let click = NewClick {
        product_id: product.id,
        session_id: "s-1",
        suggestion_context: Some("Monitor Setup"),
        analysis_id: None,
        user_id: Some(me.id),
        is_bot: false,
    };
    service::track_click(&mut conn, &click, Utc::now()).unwrap();
    let unknown = NewClick { product_id: 999_999, ..click.clone() };
    assert!(matches!(
        service::track_click(&mut conn, &unknown, Utc::now()),
        Err(AffiliateError::ProductNotFound)
    ));
    let rows: Vec<(i64, Option<i64>, String)> = affiliate_clicks::table
        .select((affiliate_clicks::product_id, affiliate_clicks::user_id, affiliate_clicks::session_id))
        .load(&mut *conn)
        .unwrap();
    assert_eq!(rows, vec![(product.id, Some(me.id), "s-1".to_owned())]);
    // Analytics outlive the account, anonymised.
    setupiq_auth::service::accounts::delete_account(&mut conn, me.id).unwrap();
    let left: Vec<Option<i64>> =
        affiliate_clicks::table.select(affiliate_clicks::user_id).load(&mut *conn).unwrap();
    assert_eq!(left, vec![None]);
}

fn trending_lists_the_three_best_rated(db: TestDb) {
    let mut conn = db.conn();
    let items = service::trending(&mut conn).unwrap();
    assert_eq!(items.len(), 3);
    assert!(items.windows(2).all(|w| w[0].rating >= w[1].rating));
    assert_eq!(items[0].name, "Herman Miller Embody");
}
