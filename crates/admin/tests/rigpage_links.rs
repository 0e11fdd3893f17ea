//! The daily check of RigPage links on both databases, against a local web site: only
//! enabled links of live pages are checked, each about once a day; the second failure in a
//! row marks a link dead and tells its owner once; changing its address forgets it; a batch
//! the server could not reach at all changes nothing.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use actix_web::{App, HttpResponse, HttpServer, web};
use chrono::{DateTime, Duration, TimeZone, Utc};
use setupiq_admin::service::checker::CheckerConfig;
use setupiq_admin::service::rigpage_links::{BatchSummary, check_due};
use setupiq_community::service::notifications::{self, NotificationKind};
use setupiq_core::{LinkId, UserId};
use setupiq_rigpage::service::config::{self, Link, Settings};
use setupiq_test_utils::{TestDb, both_backends_async, fixtures};

fn noon() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 6, 1, 12, 0, 0).single().unwrap()
}

/// A site on loopback: `/ok…` answers a page, anything else 404. Returns its base URL.
fn site() -> String {
    let server = HttpServer::new(|| {
        App::new().default_service(web::route().to(|request: actix_web::HttpRequest| async move {
            if request.path().starts_with("/ok") {
                HttpResponse::Ok()
                    .content_type("text/html")
                    .body("<html><body>My stream schedule</body></html>")
            } else {
                HttpResponse::NotFound().body("gone")
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

fn link(label: &str, url: String, enabled: bool) -> Link {
    Link { id: None, label: label.into(), url, section: None, image_url: None, enabled }
}

/// Saves the member's page with these links (live or not); returns the saved links' ids in order.
fn page(db: &TestDb, user_id: UserId, slug: &str, live: bool, links: Vec<Link>) -> Vec<LinkId> {
    let mut conn = db.conn();
    let setup = fixtures::analysis(&mut conn, user_id, true, noon());
    let settings = Settings {
        slug: Some(slug.into()),
        setup_id: Some(setup),
        enabled: live,
        links,
        ..Settings::default()
    };
    let saved = config::save(&mut conn, user_id, &settings, noon()).unwrap();
    saved.editor.settings.links.iter().map(|l| l.id.unwrap()).collect()
}

fn dead_links(db: &TestDb, user_id: UserId) -> Vec<LinkId> {
    config::load(&mut db.conn(), user_id, "unused").unwrap().dead_links
}

fn link_notices(db: &TestDb, user_id: UserId) -> Vec<Option<String>> {
    let inbox = notifications::inbox(&mut db.conn(), user_id, 50, 0).unwrap();
    inbox
        .notifications
        .into_iter()
        .filter(|n| n.kind == NotificationKind::RigpageLinkDead)
        .map(|n| n.excerpt)
        .collect()
}

async fn run(db: &TestDb, at: DateTime<Utc>) -> BatchSummary {
    check_due(db.db(), &checker(), at, 20).await.unwrap()
}

both_backends_async!(
    a_link_failing_twice_is_dead_and_its_owner_hears_once,
    a_new_address_is_checked_afresh,
    a_server_that_reaches_nothing_records_nothing,
);

async fn a_link_failing_twice_is_dead_and_its_owner_hears_once(db: TestDb) {
    let base = site();
    let (owner, other) = {
        let mut conn = db.conn();
        (
            fixtures::account(&mut conn, "creator@example.com"),
            fixtures::account(&mut conn, "drafter@example.com"),
        )
    };
    let ids = page(
        &db,
        owner.id,
        "creator_rig",
        true,
        vec![
            link("Stream schedule", format!("{base}/ok/schedule"), true),
            link("Old merch store", format!("{base}/gone/merch"), true),
            link("Switched off", format!("{base}/gone/off"), false),
        ],
    );
    page(&db, other.id, "draft_rig", false, vec![link("Draft", format!("{base}/gone/draft"), true)]);

    let first = run(&db, noon()).await;
    assert_eq!((first.checked, first.went_dead), (2, 0), "the two enabled links of the live page only");
    assert!(dead_links(&db, owner.id).is_empty(), "one failure is not enough");
    assert_eq!(run(&db, noon() + Duration::hours(1)).await.checked, 0, "checked at most once a day");

    let second = run(&db, noon() + Duration::hours(25)).await;
    assert_eq!((second.checked, second.went_dead), (2, 1));
    assert_eq!(dead_links(&db, owner.id), vec![ids[1]]);
    assert_eq!(link_notices(&db, owner.id), vec![Some("Old merch store".to_owned())]);

    let third = run(&db, noon() + Duration::hours(50)).await;
    assert_eq!((third.checked, third.went_dead), (2, 0), "still dead: no second notice");
    assert_eq!(link_notices(&db, owner.id).len(), 1);
    assert!(link_notices(&db, other.id).is_empty());
}

async fn a_new_address_is_checked_afresh(db: TestDb) {
    let base = site();
    let owner = fixtures::account(&mut db.conn(), "fixer@example.com");
    let ids = page(&db, owner.id, "fixer_rig", true, vec![link("Shop", format!("{base}/gone/shop"), true)]);
    run(&db, noon()).await;
    run(&db, noon() + Duration::hours(25)).await;
    assert_eq!(dead_links(&db, owner.id), ids);

    // The owner fixes the address: the link is no longer shown as dead, and is checked on the
    // next run though it was checked within the day.
    let mut editor = config::load(&mut db.conn(), owner.id, "fixer").unwrap();
    editor.settings.links[0].url = format!("{base}/ok/shop");
    config::save(&mut db.conn(), owner.id, &editor.settings, noon() + Duration::hours(26)).unwrap();
    assert!(dead_links(&db, owner.id).is_empty());
    let after = run(&db, noon() + Duration::hours(26)).await;
    assert_eq!((after.checked, after.went_dead), (1, 0));
    assert!(dead_links(&db, owner.id).is_empty());
}

async fn a_server_that_reaches_nothing_records_nothing(db: TestDb) {
    // A port nobody listens on: every connection is refused, as without internet.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap();
    let owner = fixtures::account(&mut db.conn(), "offline@example.com");
    page(&db, owner.id, "offline_rig", true, vec![link("Shop", format!("http://{closed}/shop"), true)]);
    for day in 0..3 {
        let batch = run(&db, noon() + Duration::hours(25 * day)).await;
        assert!(batch.unreachable && batch.checked == 1, "day {day}: {batch:?}");
    }
    assert!(dead_links(&db, owner.id).is_empty());
    assert!(link_notices(&db, owner.id).is_empty());
}
