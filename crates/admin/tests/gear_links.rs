//! The gear links of live posts in the daily link check (issue 59), on both databases,
//! against a local web site: an item's own URL is checked about once a day (a catalogue-matched
//! item without one is not); the second failure in a row marks it dead for the editor and
//! tells the post's owner once; a later answer heals it; a hidden post's gear is not checked;
//! replacing the list or deleting the post forgets what the checks saw; RigPage links are
//! claimed first and gear links fill the rest of a batch.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use actix_web::{App, HttpResponse, HttpServer, web};
use chrono::{DateTime, Duration, TimeZone, Utc};
use diesel::prelude::*;
use setupiq_admin::service::checker::CheckerConfig;
use setupiq_admin::service::rigpage_links::{BatchSummary, check_due};
use setupiq_community::service::gear::{self, GearCategory, NewGear};
use setupiq_community::service::notifications::{self, NotificationKind};
use setupiq_community::service::reports::{self, NewReport, ReportReason};
use setupiq_community::service::setups::{self, NewSetup, PostText};
use setupiq_core::feed_changes::FeedChanges;
use setupiq_core::{GearId, SetupId, UserId};
use setupiq_db::schema::setup_gear;
use setupiq_rigpage::service::config::{self, Link, Settings};
use setupiq_test_utils::{TestDb, both_backends_async, fixtures};

fn noon() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 7, 1, 12, 0, 0).single().unwrap()
}

/// A site on loopback: `/ok…` answers a page, `/flaky…` a page or a 500 as `broken` says,
/// anything else 404. Returns its base URL.
fn site(broken: Arc<AtomicBool>) -> String {
    let server = HttpServer::new(move || {
        let broken = broken.clone();
        App::new().default_service(web::route().to(move |request: actix_web::HttpRequest| {
            let broken = broken.load(Ordering::SeqCst);
            async move {
                let path = request.path();
                if path.starts_with("/ok") || (path.starts_with("/flaky") && !broken) {
                    HttpResponse::Ok().content_type("text/html").body("<html><body>Monitor arm</body></html>")
                } else if path.starts_with("/flaky") {
                    HttpResponse::InternalServerError().body("down")
                } else {
                    HttpResponse::NotFound().body("gone")
                }
            }
        }))
    })
    .workers(1)
    .bind(("127.0.0.1", 0))
    .unwrap();
    let addr = server.addrs()[0];
    actix_web::rt::spawn(server.run());
    format!("http://{addr}")
}

fn checker() -> CheckerConfig {
    CheckerConfig { allow_loopback: true, ..CheckerConfig::default() }
}

async fn run(db: &TestDb, at: DateTime<Utc>) -> BatchSummary {
    check_due(db.db(), &checker(), at, 20).await.unwrap()
}

fn published(db: &TestDb, user_id: UserId, title: &str) -> SetupId {
    let mut conn = db.conn();
    let analysis_id = fixtures::analysis(&mut conn, user_id, true, noon());
    let text = PostText { title: Some(title.to_owned()), description: None };
    let new = NewSetup { user_id, analysis_id, text: &text, images: &[], before: None };
    setups::publish(&mut conn, &new, noon()).unwrap()
}

/// Sets the post's gear to `items` (name, link on the local site or none) and returns the
/// items' ids. The list is stored with public addresses, as the owner must give them, then
/// pointed at the local site: only tests reach a loopback address (the checker's
/// `allow_loopback`).
fn set_gear(db: &TestDb, owner: UserId, setup_id: SetupId, items: &[(&str, Option<String>)]) -> Vec<GearId> {
    let mut conn = db.conn();
    let public: Vec<Option<String>> = items
        .iter()
        .enumerate()
        .map(|(i, (_, url))| url.as_ref().map(|_| format!("https://shop.example.com/{i}")))
        .collect();
    let new: Vec<NewGear<'_>> = items
        .iter()
        .zip(&public)
        .map(|((name, _), url)| NewGear { name, category: GearCategory::Other, url: url.as_deref() })
        .collect();
    let saved = gear::replace(&mut conn, owner, setup_id, &new, &FeedChanges::default()).unwrap();
    for (item, (_, url)) in saved.iter().zip(items) {
        if let Some(url) = url {
            diesel::update(setup_gear::table.find(item.id))
                .set(setup_gear::url.eq(url))
                .execute(&mut conn)
                .unwrap();
        }
    }
    saved.into_iter().map(|item| item.id).collect()
}

/// The names of the post's items the owner's gear editor marks "Not working".
fn dead_gear(db: &TestDb, owner: UserId, setup_id: SetupId) -> Vec<String> {
    let items = gear::own(&mut db.conn(), owner, setup_id).unwrap();
    items.into_iter().filter(|item| item.link_dead).map(|item| item.name).collect()
}

/// The owner's gear-link notifications as they read them.
fn gear_notices(db: &TestDb, owner: UserId) -> Vec<String> {
    let inbox = notifications::inbox(&mut db.conn(), owner, 50, 0).unwrap();
    inbox
        .notifications
        .iter()
        .filter(|n| n.kind == NotificationKind::GearLinkDead)
        .map(|n| n.sentence())
        .collect()
}

both_backends_async!(
    a_gear_link_failing_twice_is_dead_its_owner_hears_once_and_an_answer_heals_it,
    only_own_links_of_live_posts_are_checked,
    a_replaced_list_or_a_deleted_post_forgets_what_the_checks_saw,
    gear_links_fill_the_batch_after_the_rigpage_links,
);

async fn a_gear_link_failing_twice_is_dead_its_owner_hears_once_and_an_answer_heals_it(db: TestDb) {
    let broken = Arc::new(AtomicBool::new(true));
    let base = site(broken.clone());
    let owner = fixtures::account(&mut db.conn(), "gear-links@example.com");
    let setup = published(&db, owner.id, "Neon Den");
    set_gear(
        &db,
        owner.id,
        setup,
        &[
            ("LG 27GP850", Some(format!("{base}/ok/monitor"))),
            ("Monitor arm", Some(format!("{base}/flaky/arm"))),
        ],
    );

    let first = run(&db, noon()).await;
    assert_eq!((first.checked, first.went_dead), (2, 0));
    assert!(dead_gear(&db, owner.id, setup).is_empty(), "one failure is not enough");
    assert_eq!(run(&db, noon() + Duration::hours(1)).await.checked, 0, "checked at most once a day");

    let second = run(&db, noon() + Duration::hours(25)).await;
    assert_eq!((second.checked, second.went_dead), (2, 1));
    assert_eq!(dead_gear(&db, owner.id, setup), vec!["Monitor arm".to_owned()]);
    assert_eq!(
        gear_notices(&db, owner.id),
        vec![
            "The gear link of “Monitor arm” on your post “Neon Den” stopped working: fix or remove it."
                .to_owned()
        ]
    );
    let inbox = notifications::inbox(&mut db.conn(), owner.id, 50, 0).unwrap();
    assert_eq!(inbox.notifications[0].path().as_deref(), Some(format!("/community/setup/{setup}").as_str()));

    let third = run(&db, noon() + Duration::hours(50)).await;
    assert_eq!((third.checked, third.went_dead), (2, 0), "still dead: no second notice");
    assert_eq!(gear_notices(&db, owner.id).len(), 1);

    // The shop is back: the next check heals the link, and a later failure starts afresh.
    broken.store(false, Ordering::SeqCst);
    run(&db, noon() + Duration::hours(75)).await;
    assert!(dead_gear(&db, owner.id, setup).is_empty());
    broken.store(true, Ordering::SeqCst);
    run(&db, noon() + Duration::hours(100)).await;
    assert!(dead_gear(&db, owner.id, setup).is_empty(), "one failure after a recovery is not enough");
    assert_eq!(gear_notices(&db, owner.id).len(), 1);
}

async fn only_own_links_of_live_posts_are_checked(db: TestDb) {
    let base = site(Arc::new(AtomicBool::new(true)));
    let (owner, other) = {
        let mut conn = db.conn();
        (fixtures::account(&mut conn, "live@example.com"), fixtures::account(&mut conn, "hidden@example.com"))
    };
    let live = published(&db, owner.id, "Live rig");
    // No URL of its own (a catalogue match or none): nothing to check.
    set_gear(&db, owner.id, live, &[("Govee RGBIC LED Strip Lights (5 m)", None), ("Desk mat", None)]);
    let hidden = published(&db, other.id, "Reported rig");
    set_gear(&db, other.id, hidden, &[("Old arm", Some(format!("{base}/gone/arm")))]);
    {
        let mut conn = db.conn();
        for n in 0..3 {
            let reporter = fixtures::established_reporter(&mut conn, &format!("rep-{n}@example.com"), noon());
            let new = NewReport::new(ReportReason::Spam, Some("ads"));
            reports::report(&mut conn, &reporter, hidden, new, noon(), &FeedChanges::default()).unwrap();
        }
        assert!(setups::find(&mut conn, hidden).unwrap().hidden, "three weighing reports hide the post");
    }

    for day in 0..3 {
        let batch = run(&db, noon() + Duration::hours(25 * day)).await;
        assert_eq!(batch.checked, 0, "day {day}: {batch:?}");
    }
    assert!(dead_gear(&db, other.id, hidden).is_empty());
    assert!(gear_notices(&db, other.id).is_empty());
}

async fn a_replaced_list_or_a_deleted_post_forgets_what_the_checks_saw(db: TestDb) {
    let base = site(Arc::new(AtomicBool::new(true)));
    let owner = fixtures::account(&mut db.conn(), "replacer@example.com");
    let setup = published(&db, owner.id, "Fixer rig");
    let arm = || vec![("Monitor arm", Some(format!("{base}/gone/arm")))];
    set_gear(&db, owner.id, setup, &arm());
    run(&db, noon()).await;
    run(&db, noon() + Duration::hours(25)).await;
    assert_eq!(dead_gear(&db, owner.id, setup), vec!["Monitor arm".to_owned()]);

    // The owner saves the list again: its items start unchecked, checked on the next run
    // though the old ones were checked within the day, and one failure is not enough again.
    set_gear(&db, owner.id, setup, &arm());
    assert!(dead_gear(&db, owner.id, setup).is_empty());
    let after = run(&db, noon() + Duration::hours(26)).await;
    assert_eq!((after.checked, after.went_dead), (1, 0));
    assert!(dead_gear(&db, owner.id, setup).is_empty());
    run(&db, noon() + Duration::hours(51)).await;
    assert_eq!(dead_gear(&db, owner.id, setup), vec!["Monitor arm".to_owned()]);
    assert_eq!(gear_notices(&db, owner.id).len(), 2, "a new item going dead is news again");

    // The post goes, and its gear with everything the checks saw of it.
    setups::delete(&mut db.conn(), owner.id, false, setup, &FeedChanges::default()).unwrap();
    let left: i64 = setup_gear::table.count().get_result(&mut db.conn()).unwrap();
    assert_eq!(left, 0);
    assert_eq!(run(&db, noon() + Duration::hours(100)).await.checked, 0);
}

async fn gear_links_fill_the_batch_after_the_rigpage_links(db: TestDb) {
    let base = site(Arc::new(AtomicBool::new(true)));
    let owner = fixtures::account(&mut db.conn(), "both@example.com");
    let setup = published(&db, owner.id, "Both rig");
    set_gear(&db, owner.id, setup, &[("Monitor arm", Some(format!("{base}/ok/arm")))]);
    let settings = Settings {
        slug: Some("both_rig".into()),
        setup_id: Some(fixtures::analysis(&mut db.conn(), owner.id, true, noon())),
        enabled: true,
        links: vec![Link {
            id: None,
            label: "Shop".into(),
            url: format!("{base}/ok/shop"),
            section: None,
            image_url: None,
            enabled: true,
        }],
        ..Settings::default()
    };
    config::save(&mut db.conn(), owner.id, &settings, noon()).unwrap();

    let checker = checker();
    let batch_of_one = || check_due(db.db(), &checker, noon(), 1);
    assert_eq!(batch_of_one().await.unwrap().checked, 1, "the RigPage link");
    assert_eq!(batch_of_one().await.unwrap().checked, 1, "then the gear link");
    assert_eq!(batch_of_one().await.unwrap().checked, 0, "both checked for the day");
    assert_eq!(run(&db, noon() + Duration::hours(25)).await.checked, 2, "one batch holds both");
}
