//! A post's gear on both databases (issue 59): only its owner sets it, at most 20 items with
//! names of 1-80 characters and public http(s) links, the whole list replaced at once; the
//! feed shows it without the links; `/go/gear/{id}` leads only where the item points (its
//! link, or a matched catalogue product's affiliate link) and counts people's clicks (bots
//! kept and never counted, the owner not recorded); the list goes with its post.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use chrono::{DateTime, TimeZone, Utc};
use diesel::prelude::*;
use setupiq_community::CommunityError;
use setupiq_community::service::gear::{self, Follower, GearCategory, NewGear};
use setupiq_community::service::setups::{self, NewSetup, PostText};
use setupiq_community::service::{feed, my_posts};
use setupiq_core::feed_changes::FeedChanges;
use setupiq_core::{GearId, ProductId, SetupId, UserId};
use setupiq_db::DbConnection;
use setupiq_db::schema::{products, setup_gear, setup_gear_clicks};
use setupiq_test_utils::{TestDb, both_backends, fixtures};

const LED_STRIP: &str = "Govee RGBIC LED Strip Lights (5 m)";

fn noon() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 7, 1, 12, 0, 0).single().unwrap()
}

fn published(conn: &mut DbConnection, user_id: UserId) -> SetupId {
    let analysis_id = fixtures::analysis(conn, user_id, true, noon());
    let text = PostText { title: Some("My rig".into()), description: None };
    let new = NewSetup { user_id, analysis_id, text: &text, images: &[], before: None };
    setups::publish(conn, &new, noon()).unwrap()
}

fn item<'a>(name: &'a str, category: GearCategory, url: Option<&'a str>) -> NewGear<'a> {
    NewGear { name, category, url }
}

fn set(
    conn: &mut DbConnection,
    user_id: UserId,
    setup_id: SetupId,
    items: &[NewGear<'_>],
) -> Result<Vec<gear::OwnGearItem>, CommunityError> {
    gear::replace(conn, user_id, setup_id, items, &FeedChanges::default())
}

fn person(viewer: Option<UserId>) -> Follower {
    Follower { viewer, is_bot: false }
}

/// The gear as the post's own page shows it to a visitor: (name, category, has a link).
fn shown(conn: &mut DbConnection, setup_id: SetupId) -> Vec<(String, GearCategory, bool)> {
    let setup = feed::setup(conn, None, setup_id).unwrap().unwrap();
    setup.gear.into_iter().map(|g| (g.name, g.category, g.has_link)).collect()
}

both_backends!(
    only_the_owner_sets_the_gear_and_the_whole_list_is_replaced,
    the_list_has_at_most_twenty_named_items_with_public_web_links,
    a_gear_link_leads_only_where_the_item_points_and_counts_people,
    the_gear_goes_with_its_post_and_its_clicks_stay_counted,
);

fn only_the_owner_sets_the_gear_and_the_whole_list_is_replaced(db: TestDb) {
    let mut conn = db.conn();
    let owner = fixtures::account(&mut conn, "gear-owner@example.com");
    let other = fixtures::account(&mut conn, "gear-other@example.com");
    let setup = published(&mut conn, owner.id);

    let first = [
        item("  LG 27GP850  ", GearCategory::Monitor, Some("https://www.amazon.com/dp/B093MBYSTV")),
        item("Keychron Q1", GearCategory::Keyboard, Some("")),
        item(LED_STRIP, GearCategory::Lighting, None),
    ];
    assert!(matches!(set(&mut conn, other.id, setup, &first), Err(CommunityError::NotOwner)));
    assert!(matches!(set(&mut conn, owner.id, SetupId(999_999), &first), Err(CommunityError::SetupNotFound)));
    assert!(shown(&mut conn, setup).is_empty(), "a refused list leaves nothing behind");
    assert!(matches!(gear::own(&mut conn, other.id, setup), Err(CommunityError::NotOwner)));

    let saved = set(&mut conn, owner.id, setup, &first).unwrap();
    assert_eq!(saved[0].name, "LG 27GP850", "names are trimmed");
    assert_eq!(saved[0].url.as_deref(), Some("https://www.amazon.com/dp/B093MBYSTV"));
    assert_eq!(saved[1].url, None, "an empty link is no link");
    assert_eq!(
        shown(&mut conn, setup),
        [
            ("LG 27GP850".to_owned(), GearCategory::Monitor, true),
            ("Keychron Q1".to_owned(), GearCategory::Keyboard, false),
            // No link of its own, but the catalogue sells it.
            (LED_STRIP.to_owned(), GearCategory::Lighting, true),
        ]
    );
    assert_eq!(gear::own(&mut conn, owner.id, setup).unwrap(), saved);

    // Replaced as a whole: the old items (and their ids) are gone.
    let second = [item("Grandpa's old armchair", GearCategory::Chair, None)];
    let replaced = set(&mut conn, owner.id, setup, &second).unwrap();
    assert_eq!(replaced.len(), 1);
    assert!(saved.iter().all(|old| old.id != replaced[0].id));
    assert_eq!(shown(&mut conn, setup), [("Grandpa's old armchair".to_owned(), GearCategory::Chair, false)]);
    let old = saved[0].id;
    assert!(matches!(gear::follow(&mut conn, person(None), old, noon()), Err(CommunityError::GearNotFound)));

    // An empty list removes it.
    assert!(set(&mut conn, owner.id, setup, &[]).unwrap().is_empty());
    assert!(shown(&mut conn, setup).is_empty());
}

fn the_list_has_at_most_twenty_named_items_with_public_web_links(db: TestDb) {
    let mut conn = db.conn();
    let owner = fixtures::account(&mut conn, "gear-rules@example.com");
    let setup = published(&mut conn, owner.id);
    let kept = [item("Logitech G Pro X", GearCategory::Mouse, Some("https://shop.example.com/gpro"))];
    set(&mut conn, owner.id, setup, &kept).unwrap();

    let names: Vec<String> = (0..21).map(|i| format!("Thing {i}")).collect();
    let many: Vec<NewGear<'_>> = names.iter().map(|n| item(n, GearCategory::Other, None)).collect();
    assert!(matches!(set(&mut conn, owner.id, setup, &many), Err(CommunityError::TooMuchGear)));
    assert_eq!(set(&mut conn, owner.id, setup, &many[..20]).unwrap().len(), 20);
    set(&mut conn, owner.id, setup, &kept).unwrap();

    let long = "x".repeat(81);
    let longest = "é".repeat(80);
    for bad in ["", "   ", long.as_str()] {
        let list = [kept[0], item(bad, GearCategory::Desk, None)];
        assert!(
            matches!(set(&mut conn, owner.id, setup, &list), Err(CommunityError::GearNameLength)),
            "{bad:?}"
        );
    }
    assert_eq!(
        set(&mut conn, owner.id, setup, &[item(&longest, GearCategory::Desk, None)]).unwrap().len(),
        1
    );
    set(&mut conn, owner.id, setup, &kept).unwrap();

    for bad in [
        "javascript:alert(1)",
        " javascript:alert(document.cookie)",
        "ftp://files.example.com/arm",
        "data:text/html,<script>alert(1)</script>",
        "http://localhost:8080/_api/admin",
        "http://127.0.0.1/",
        "http://10.0.0.7/",
        "http://192.168.1.1/",
        "http://169.254.169.254/latest/meta-data/",
        "http://[::1]/",
        "http://[fd00::1]/",
        "https://exa mple.com/",
    ] {
        let list = [item("Desk mat", GearCategory::Other, Some(bad))];
        assert!(matches!(set(&mut conn, owner.id, setup, &list), Err(CommunityError::GearUrl)), "{bad:?}");
    }
    // Every refusal left the list as it was.
    assert_eq!(shown(&mut conn, setup), [("Logitech G Pro X".to_owned(), GearCategory::Mouse, true)]);
    let ok = [item("Desk mat", GearCategory::Other, Some("http://8.8.8.8/mat"))];
    assert!(set(&mut conn, owner.id, setup, &ok).is_ok(), "a public address is a public address");
}

fn a_gear_link_leads_only_where_the_item_points_and_counts_people(db: TestDb) {
    let mut conn = db.conn();
    let owner = fixtures::account(&mut conn, "gear-links@example.com");
    let visitor = fixtures::account(&mut conn, "gear-visitor@example.com");
    let setup = published(&mut conn, owner.id);
    let arm = "https://www.amazon.com/dp/B0ARM?tag=owner-20";
    let saved = set(
        &mut conn,
        owner.id,
        setup,
        &[
            item("Monitor arm", GearCategory::Monitor, Some(arm)),
            item(&LED_STRIP.to_uppercase(), GearCategory::Lighting, None),
            item("My own desk", GearCategory::Desk, None),
        ],
    )
    .unwrap();
    let (arm_id, strip_id, desk_id) = (saved[0].id, saved[1].id, saved[2].id);
    let product_link: String =
        products::table.filter(products::name.eq(LED_STRIP)).select(products::link).first(&mut conn).unwrap();

    assert_eq!(gear::follow(&mut conn, person(Some(visitor.id)), arm_id, noon()).unwrap(), arm);
    assert_eq!(gear::follow(&mut conn, person(None), arm_id, noon()).unwrap(), arm);
    // Matched by name in any case: the product's affiliate link.
    assert_eq!(gear::follow(&mut conn, person(None), strip_id, noon()).unwrap(), product_link);
    // Nothing to go to, a forged id: refused, never a redirect elsewhere.
    for refused in [desk_id, GearId(999_999)] {
        assert!(matches!(
            gear::follow(&mut conn, person(None), refused, noon()),
            Err(CommunityError::GearNotFound)
        ));
    }
    // A bot's click is kept, never counted; the owner's own click is not recorded.
    let bot = Follower { viewer: None, is_bot: true };
    assert_eq!(gear::follow(&mut conn, bot, arm_id, noon()).unwrap(), arm);
    assert_eq!(gear::follow(&mut conn, person(Some(owner.id)), arm_id, noon()).unwrap(), arm);
    let recorded: i64 = setup_gear_clicks::table.count().get_result(&mut conn).unwrap();
    assert_eq!(recorded, 4, "three people and a bot");

    let (posts, _) = my_posts::list(&mut conn, owner.id).unwrap();
    assert_eq!(posts[0].gear_clicks, 3);
    let own = gear::own(&mut conn, owner.id, setup).unwrap();
    assert_eq!(own.iter().map(|g| g.clicks).collect::<Vec<_>>(), [2, 1, 0]);

    let stats = gear::click_stats(&mut conn, None).unwrap();
    assert_eq!(stats.total, 3);
    assert_eq!(stats.by_category, [(GearCategory::Monitor, 2), (GearCategory::Lighting, 1)]);
    assert_eq!(stats.by_network, [("amazon".to_owned(), 3)]);
    let later = (noon() + chrono::Duration::days(1)).naive_utc();
    assert_eq!(gear::click_stats(&mut conn, Some(later)).unwrap().total, 0);

    // A product switched off by a link check matches nothing any more.
    let product: ProductId =
        products::table.filter(products::name.eq(LED_STRIP)).select(products::id).first(&mut conn).unwrap();
    setupiq_affiliate::service::link_health::set_active(&mut conn, product, false).unwrap();
    assert!(matches!(
        gear::follow(&mut conn, person(None), strip_id, noon()),
        Err(CommunityError::GearNotFound)
    ));
    assert!(!shown(&mut conn, setup)[1].2, "no link shown for it either");
}

fn the_gear_goes_with_its_post_and_its_clicks_stay_counted(db: TestDb) {
    let mut conn = db.conn();
    let owner = fixtures::account(&mut conn, "gear-gone@example.com");
    let setup = published(&mut conn, owner.id);
    let saved = set(
        &mut conn,
        owner.id,
        setup,
        &[item("Arm", GearCategory::Monitor, Some("https://shop.example.com/a"))],
    )
    .unwrap();
    gear::follow(&mut conn, person(None), saved[0].id, noon()).unwrap();

    setups::delete(&mut conn, owner.id, false, setup, &FeedChanges::default()).unwrap();
    let left: i64 = setup_gear::table.count().get_result(&mut conn).unwrap();
    assert_eq!(left, 0);
    assert!(matches!(
        gear::follow(&mut conn, person(None), saved[0].id, noon()),
        Err(CommunityError::GearNotFound)
    ));
    let stats = gear::click_stats(&mut conn, None).unwrap();
    assert_eq!((stats.total, stats.by_network), (1, vec![("other".to_owned(), 1)]));
}
