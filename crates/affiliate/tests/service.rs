//! The seeded catalogue and click tracking on both databases.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use chrono::Utc;
use diesel::prelude::*;
use setupiq_affiliate::AffiliateError;
use setupiq_affiliate::service::{self, ChairStyle, NewClick, ProductKind, Tier};
use setupiq_core::{ProductId, UserId};
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
    every_category_has_several_products_per_tier_cheapest_to_dearest,
    the_catalogue_offers_different_kinds_of_product_per_category,
    chairs_come_in_a_gaming_and_an_ergonomic_trio,
    unknown_categories_get_the_generic_trio,
    clicks_are_recorded_for_known_products_only,
    trending_lists_the_three_best_rated,
);

fn every_category_has_several_products_per_tier_cheapest_to_dearest(db: TestDb) {
    let mut conn = db.conn();
    for category in CATEGORIES {
        for style in [ChairStyle::Gaming, ChairStyle::Ergonomic] {
            let rec = service::recommend(&mut conn, category, Some(style)).unwrap();
            for tier in [Tier::Budget, Tier::Balanced, Tier::Premium] {
                let products = rec.tier(tier);
                assert!(products.len() >= 2, "{category} / {tier}: {}", products.len());
                assert!(products.iter().all(|p| p.tier == tier && p.kind.is_some()), "{category} / {tier}");
                // The first is the best-rated: the pick when nothing else decides.
                assert!(products.windows(2).all(|w| w[0].rating >= w[1].rating), "{category} / {tier}");
            }
            let dearest = |tier: Tier| rec.tier(tier).iter().map(|p| p.price_cents).max().unwrap();
            let cheapest = |tier: Tier| rec.tier(tier).iter().map(|p| p.price_cents).min().unwrap();
            assert!(dearest(Tier::Budget) < cheapest(Tier::Balanced), "{category}");
            assert!(dearest(Tier::Balanced) < cheapest(Tier::Premium), "{category}");
            for product in rec.budget.iter().chain(&rec.balanced).chain(&rec.premium) {
                assert!(
                    (999..=139_500).contains(&product.price_cents),
                    "{}: {}",
                    product.name,
                    product.price_cents
                );
                assert!(product.link.starts_with("https://") && product.link.contains("tag=setupiq-20"));
                assert!((0.0..=5.0).contains(&product.rating));
            }
        }
    }
}

fn the_catalogue_offers_different_kinds_of_product_per_category(db: TestDb) {
    let mut conn = db.conn();
    let kinds = |conn: &mut setupiq_db::DbConnection, category: &str| -> Vec<ProductKind> {
        let rec = service::recommend(conn, category, None).unwrap();
        rec.budget.iter().chain(&rec.balanced).chain(&rec.premium).filter_map(|p| p.kind).collect()
    };
    let monitor = kinds(&mut conn, "Monitor Setup");
    for kind in
        [ProductKind::MonitorArm, ProductKind::DualArm, ProductKind::LaptopStand, ProductKind::Monitor]
    {
        assert!(monitor.contains(&kind), "{kind}");
    }
    let vibe = kinds(&mut conn, "Aesthetic Vibe");
    assert!(vibe.contains(&ProductKind::PlantSet) && vibe.contains(&ProductKind::WallPanels));
    // Accessories fit any chair; the chairs follow the style.
    let chairs = kinds(&mut conn, "Chair & Comfort");
    assert!(chairs.contains(&ProductKind::Footrest) && chairs.contains(&ProductKind::GamingChair));
    assert!(!chairs.contains(&ProductKind::ErgonomicChair));
}

fn chairs_come_in_a_gaming_and_an_ergonomic_trio(db: TestDb) {
    let mut conn = db.conn();
    let gaming = service::recommend(&mut conn, "Chair & Comfort", Some(ChairStyle::Gaming)).unwrap();
    let ergonomic = service::recommend(&mut conn, "Chair & Comfort", Some(ChairStyle::Ergonomic)).unwrap();
    let names = |products: &[service::Product]| products.iter().map(|p| p.name.clone()).collect::<Vec<_>>();
    assert!(names(&gaming.premium).contains(&"Secretlab Titan Evo".to_owned()));
    assert!(names(&ergonomic.premium).contains(&"Herman Miller Embody".to_owned()));
    assert!(!names(&gaming.premium).contains(&"Herman Miller Embody".to_owned()));
    assert_eq!(service::recommend(&mut conn, "Chair & Comfort", None).unwrap(), gaming);
}

fn unknown_categories_get_the_generic_trio(db: TestDb) {
    let mut conn = db.conn();
    let rec = service::recommend(&mut conn, "Streaming Gear", None).unwrap();
    assert_eq!(rec.budget[0].category, "Accessories");
    assert_eq!(rec.balanced[0].category, "Keyboard");
    assert_eq!(rec.premium[0].category, "Headset");
}

fn clicks_are_recorded_for_known_products_only(db: TestDb) {
    let mut conn = db.conn();
    let me = fixtures::account(&mut conn, "clicker@example.com");
    let product = service::recommend(&mut conn, "Monitor Setup", None).unwrap().balanced.remove(0);
    let click = NewClick {
        product_id: product.id,
        session_id: "s-1",
        suggestion_context: Some("Monitor Setup"),
        analysis_id: None,
        user_id: Some(me.id),
        is_bot: false,
    };
    service::track_click(&mut conn, &click, Utc::now()).unwrap();
    let unknown = NewClick { product_id: ProductId(999_999), ..click.clone() };
    assert!(matches!(
        service::track_click(&mut conn, &unknown, Utc::now()),
        Err(AffiliateError::ProductNotFound)
    ));
    let rows: Vec<(ProductId, Option<UserId>, String)> = affiliate_clicks::table
        .select((affiliate_clicks::product_id, affiliate_clicks::user_id, affiliate_clicks::session_id))
        .load(&mut *conn)
        .unwrap();
    assert_eq!(rows, vec![(product.id, Some(me.id), "s-1".to_owned())]);
    // Analytics outlive the account, anonymised.
    setupiq_auth::service::accounts::delete_account(&mut conn, me.id, Utc::now()).unwrap();
    let left: Vec<Option<UserId>> =
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
