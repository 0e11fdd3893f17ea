//! RigPage on both databases: the charges the server takes (the first Go Live, batches of
//! links with a high-water mark), nothing saved when the balance is short, races (ten Go
//! Live at once, two users claiming one slug), slugs, setups and images that must be the
//! user's own, the public page, and visitors' counts. After every charge the balance
//! equals the sum of the ledger.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use base64::Engine;
use chrono::{DateTime, Duration, TimeZone, Utc};
use setupiq_auth::service::accounts;
use setupiq_auth::service::ledger::{self, LedgerReason};
use std::sync::Arc;

use setupiq_core::clock;
use setupiq_core::media::MediaStore;
use setupiq_core::upload::{ImageQueue, UncheckedWorker, UploadError, UploadRejection, Uploads};
use setupiq_core::{AnalysisId, LinkId, UserId};
use setupiq_db::DbConnection;
use setupiq_rigpage::RigpageError;
use setupiq_rigpage::service::config::{self, Link, Settings};
use setupiq_rigpage::service::images::{self, ImageKind};
use setupiq_rigpage::service::public;
use setupiq_rigpage::service::visits::{self, Visits};
use setupiq_test_utils::{TestDb, both_backends, both_backends_async, fixtures};

fn noon() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 6, 1, 12, 0, 0).single().unwrap()
}

fn balance_of(conn: &mut DbConnection, user_id: UserId) -> i32 {
    ledger::balance(conn, user_id).unwrap()
}

fn set_balance(conn: &mut DbConnection, user_id: UserId, credits: i32) {
    let change = credits - balance_of(conn, user_id);
    if change != 0 {
        ledger::apply(conn, user_id, change, &LedgerReason::Spend("test".into()), None, noon()).unwrap();
    }
}

fn reasons(conn: &mut DbConnection, user_id: UserId) -> Vec<(LedgerReason, i32)> {
    ledger::history(conn, user_id, 100).unwrap().into_iter().map(|e| (e.reason, e.amount)).collect()
}

fn assert_consistent(conn: &mut DbConnection, user_id: UserId) {
    assert!(ledger::balance_matches_ledger(conn, user_id).unwrap(), "balance == sum of ledger");
}

fn links(n: usize) -> Vec<Link> {
    (0..n)
        .map(|i| Link {
            id: None,
            label: format!("Link {i}"),
            url: format!("https://example.com/{i}"),
            section: None,
            image_url: None,
            enabled: true,
        })
        .collect()
}

/// A page with a slug and the user's photo setup, not live.
fn draft(conn: &mut DbConnection, user_id: UserId, slug: &str) -> Settings {
    let setup = fixtures::analysis(conn, user_id, true, noon());
    Settings { slug: Some(slug.into()), setup_id: Some(setup), ..Settings::default() }
}

both_backends!(
    a_new_page_starts_with_the_username_and_the_newest_photo,
    a_new_page_shows_the_best_scoring_photo_not_the_newest,
    the_first_go_live_costs_one_credit_and_going_live_again_is_free,
    links_beyond_five_cost_a_credit_per_started_batch_of_ten_once,
    too_few_credits_save_nothing,
    ten_simultaneous_go_live_requests_pay_once,
    two_users_claiming_one_slug_at_once_one_wins,
    slugs_are_unique_without_regard_to_case_and_reserved_words_are_refused,
    a_deleted_accounts_slug_is_held_for_thirty_days,
    a_renamed_pages_old_address_leads_to_it_for_ninety_days,
    going_live_needs_a_slug_and_an_own_photo_setup,
    the_public_page_is_private_until_live_and_shows_only_links_switched_on,
    saved_links_keep_their_ids_and_links_left_out_are_deleted,
    visits_are_counted_per_day_for_the_owner_and_flushed_once,
);

both_backends_async!(
    uploads_are_re_encoded_and_only_their_owner_may_show_them,
    an_upload_the_safety_classifier_cannot_check_is_refused_and_not_kept,
    parallel_uploads_respect_the_hourly_limit,
    a_huge_picture_is_refused_from_its_header_before_it_counts,
);

fn a_new_page_shows_the_best_scoring_photo_not_the_newest(db: TestDb) {
    let mut conn = db.conn();
    let me = fixtures::account(&mut conn, "bestpage@example.com");
    let best = fixtures::described_analysis(
        &mut conn,
        me.id,
        true,
        "Two 27-inch monitors on gas-spring arms at eye level, every cable in an under-desk tray, an ergonomic mesh chair with lumbar support, warm bias lighting and a tidy white desk.",
        noon(),
    );
    let newer = fixtures::described_analysis(
        &mut conn,
        me.id,
        true,
        "A messy desk, one old monitor, cables everywhere.",
        noon() + Duration::minutes(1),
    );
    let score = |conn: &mut DbConnection, id| {
        setupiq_analysis::service::find_for_owner(conn, me.id, id).unwrap().report.assessment.overall_score
    };
    assert!(score(&mut conn, best) > score(&mut conn, newer), "the fixture's texts score apart");
    let editor = config::load(&mut conn, me.id, &me.username).unwrap();
    assert_eq!(editor.settings.setup_id, Some(best), "the best score, not the newest photo");
}

fn a_new_page_starts_with_the_username_and_the_newest_photo(db: TestDb) {
    let mut conn = db.conn();
    let me = fixtures::account(&mut conn, "newpage@example.com");
    fixtures::analysis(&mut conn, me.id, true, noon());
    let newest_photo = fixtures::analysis(&mut conn, me.id, true, noon() + Duration::minutes(1));
    fixtures::analysis(&mut conn, me.id, false, noon() + Duration::minutes(2));

    let editor = config::load(&mut conn, me.id, &me.username).unwrap();
    assert!(!editor.saved);
    let s = &editor.settings;
    assert_eq!(s.slug.as_deref(), Some(me.username.as_str()));
    assert_eq!(s.setup_id, Some(newest_photo), "the newest photo analysis, not the newer description");
    assert_eq!((s.blur, s.opacity, s.show_setup_in_background), (5, 100, true));
    assert_eq!((s.highlight_color.as_str(), s.corner_radius), ("#8B5CF6", 50));

    // Someone else holds the username as their slug: no default slug.
    let other = fixtures::account(&mut conn, "other@example.com");
    let taken = Settings { slug: Some(me.username.to_uppercase()), ..Settings::default() };
    config::save(&mut conn, other.id, &taken, noon()).unwrap();
    assert_eq!(config::load(&mut conn, me.id, &me.username).unwrap().settings.slug, None);
}

fn the_first_go_live_costs_one_credit_and_going_live_again_is_free(db: TestDb) {
    let mut conn = db.conn();
    let me = fixtures::account(&mut conn, "live@example.com");
    let start = balance_of(&mut conn, me.id);
    let mut page = draft(&mut conn, me.id, "live_rig");

    let saved = config::save(&mut conn, me.id, &page, noon()).unwrap();
    assert_eq!(saved.charge.credits(), 0, "saving a private page is free");
    page.enabled = true;
    let live = config::save(&mut conn, me.id, &page, noon()).unwrap();
    assert!(live.charge.publish);
    assert_eq!((live.charge.credits(), live.credits), (1, start - 1));
    assert!(live.editor.ever_published);

    page.enabled = false;
    assert_eq!(config::save(&mut conn, me.id, &page, noon()).unwrap().charge.credits(), 0);
    page.enabled = true;
    let again = config::save(&mut conn, me.id, &page, noon()).unwrap();
    assert_eq!(again.charge.credits(), 0, "off and on again is free");
    assert_eq!(balance_of(&mut conn, me.id), start - 1);
    assert_eq!(
        reasons(&mut conn, me.id).iter().filter(|(r, _)| *r == LedgerReason::RigpagePublish).count(),
        1
    );
    assert_consistent(&mut conn, me.id);
}

fn links_beyond_five_cost_a_credit_per_started_batch_of_ten_once(db: TestDb) {
    let mut conn = db.conn();
    let me = fixtures::account(&mut conn, "links@example.com");
    set_balance(&mut conn, me.id, 10);
    let mut page = draft(&mut conn, me.id, "linky");
    let mut charged = |page: &mut Settings, n: usize| {
        page.links = links(n);
        config::save(&mut conn, me.id, page, noon()).unwrap().charge.link_batches
    };
    assert_eq!(charged(&mut page, 5), 0, "5 links are free");
    assert_eq!(charged(&mut page, 6), 1, "the 6th starts a batch");
    assert_eq!(charged(&mut page, 15), 0, "links 6-15 are one batch");
    assert_eq!(charged(&mut page, 16), 1, "the 16th starts the second");
    assert_eq!(charged(&mut page, 3), 0, "removing links refunds nothing");
    assert_eq!(charged(&mut page, 25), 0, "and adding them back costs nothing (high-water mark)");
    assert_eq!(charged(&mut page, 36), 2, "26-35 and 36 are two new batches");
    assert_eq!(balance_of(&mut conn, me.id), 10 - 4);
    let link_lines: Vec<i32> = reasons(&mut conn, me.id)
        .into_iter()
        .filter(|(r, _)| *r == LedgerReason::RigpageLinks)
        .map(|(_, a)| a)
        .collect();
    assert_eq!(link_lines.iter().sum::<i32>(), -4, "{link_lines:?}");
    assert_consistent(&mut conn, me.id);
    assert_eq!(config::link_batches(5), 0);
    assert_eq!(config::link_batches(105), 10);
}

fn too_few_credits_save_nothing(db: TestDb) {
    let mut conn = db.conn();
    let me = fixtures::account(&mut conn, "broke@example.com");
    let mut page = draft(&mut conn, me.id, "broke_rig");
    set_balance(&mut conn, me.id, 1);
    page.enabled = true;
    page.links = links(6);
    page.tagline = Some("never saved".into());
    let err = config::save(&mut conn, me.id, &page, noon()).unwrap_err();
    assert!(matches!(err, RigpageError::InsufficientCredits { needed: 2 }), "{err:?}");
    assert!(err.to_string().contains("credits"), "{err}");
    let editor = config::load(&mut conn, me.id, &me.username).unwrap();
    assert!(!editor.saved, "nothing saved");
    assert_eq!(balance_of(&mut conn, me.id), 1, "nothing taken");
    assert!(
        !reasons(&mut conn, me.id)
            .iter()
            .any(|(r, _)| matches!(r, LedgerReason::RigpagePublish | LedgerReason::RigpageLinks))
    );

    // With the page saved before, a short balance keeps the old version.
    page.enabled = false;
    page.links = links(2);
    config::save(&mut conn, me.id, &page, noon()).unwrap();
    set_balance(&mut conn, me.id, 0);
    page.enabled = true;
    page.tagline = Some("changed".into());
    assert!(matches!(
        config::save(&mut conn, me.id, &page, noon()),
        Err(RigpageError::InsufficientCredits { .. })
    ));
    let kept = config::load(&mut conn, me.id, &me.username).unwrap().settings;
    assert_eq!((kept.enabled, kept.tagline.as_deref(), kept.links.len()), (false, Some("never saved"), 2));
    assert_consistent(&mut conn, me.id);
}

fn ten_simultaneous_go_live_requests_pay_once(db: TestDb) {
    let me = fixtures::account(&mut db.conn(), "race@example.com");
    let mut page = draft(&mut db.conn(), me.id, "race_rig");
    set_balance(&mut db.conn(), me.id, 1);
    page.enabled = true;
    let results: Vec<_> = std::thread::scope(|s| {
        let handles: Vec<_> =
            (0..10).map(|_| s.spawn(|| config::save(&mut db.conn(), me.id, &page, noon()))).collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert!(results.iter().all(Result::is_ok), "{results:?}");
    assert_eq!(results.iter().filter(|r| r.as_ref().unwrap().charge.publish).count(), 1, "charged once");
    let mut conn = db.conn();
    assert_eq!(balance_of(&mut conn, me.id), 0);
    assert_consistent(&mut conn, me.id);
}

fn two_users_claiming_one_slug_at_once_one_wins(db: TestDb) {
    let a = fixtures::account(&mut db.conn(), "a@example.com");
    let b = fixtures::account(&mut db.conn(), "b@example.com");
    for round in 0..3 {
        let slug = format!("Contested{round}");
        let pages = [(a.id, slug.clone()), (b.id, slug.to_lowercase())];
        let results: Vec<_> = std::thread::scope(|s| {
            let handles: Vec<_> = pages
                .iter()
                .map(|(user, slug)| {
                    s.spawn(|| {
                        let page = Settings { slug: Some(slug.clone()), ..Settings::default() };
                        config::save(&mut db.conn(), *user, &page, noon())
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        assert_eq!(results.iter().filter(|r| r.is_ok()).count(), 1, "round {round}: {results:?}");
        assert!(results.iter().any(|r| matches!(r, Err(RigpageError::SlugTaken))), "{results:?}");
    }
}

fn slugs_are_unique_without_regard_to_case_and_reserved_words_are_refused(db: TestDb) {
    let mut conn = db.conn();
    let a = fixtures::account(&mut conn, "slug-a@example.com");
    let b = fixtures::account(&mut conn, "slug-b@example.com");
    let page = |slug: &str| Settings { slug: Some(slug.into()), ..Settings::default() };
    config::save(&mut conn, a.id, &page("NightOwl"), noon()).unwrap();
    assert!(matches!(config::save(&mut conn, b.id, &page("nightowl"), noon()), Err(RigpageError::SlugTaken)));
    assert!(matches!(config::save(&mut conn, b.id, &page("NIGHTOWL"), noon()), Err(RigpageError::SlugTaken)));
    // The holder may change the case of their own slug.
    config::save(&mut conn, a.id, &page("nightOWL"), noon()).unwrap();
    for reserved in [
        "admin",
        "API",
        "Rig",
        "login",
        "settings",
        "config",
        "rigpage-config",
        "SetupIQ",
        "Official",
        "HELP",
        "support",
        "setupiq_team",
    ] {
        assert!(
            matches!(config::save(&mut conn, b.id, &page(reserved), noon()), Err(RigpageError::SlugReserved)),
            "{reserved}"
        );
    }
    // A slug given up is free again.
    config::save(&mut conn, a.id, &Settings::default(), noon()).unwrap();
    config::save(&mut conn, b.id, &page("NightOwl"), noon()).unwrap();
}

/// Nobody takes over a deleted account's address (and the links people shared) for 30 days.
fn a_deleted_accounts_slug_is_held_for_thirty_days(db: TestDb) {
    let mut conn = db.conn();
    let gone = fixtures::account(&mut conn, "gone@example.com");
    let page = |slug: &str| Settings { slug: Some(slug.into()), ..Settings::default() };
    config::save(&mut conn, gone.id, &page("NightOwl"), noon()).unwrap();
    let hooks = accounts::OwnedMedia(vec![config::on_account_deleted]);
    accounts::delete_account_with(&mut conn, gone.id, &hooks, noon()).unwrap();

    let next = fixtures::account(&mut conn, "nightowl@example.com");
    let day = chrono::Duration::days(1);
    for when in [noon() + day, noon() + config::DELETED_SLUG_HOLD - day] {
        assert!(matches!(
            config::save(&mut conn, next.id, &page("nightowl"), when),
            Err(RigpageError::SlugTaken)
        ));
    }
    assert_eq!(
        config::load(&mut conn, next.id, "NightOwl").unwrap().settings.slug,
        None,
        "not offered either"
    );
    config::save(&mut conn, next.id, &page("nightowl"), noon() + config::DELETED_SLUG_HOLD + day).unwrap();
}

/// Printed QR codes and shared links of a renamed page keep working: the old slug leads to
/// the new one and nobody else may take it, for 90 days; its owner may take it back.
fn a_renamed_pages_old_address_leads_to_it_for_ninety_days(db: TestDb) {
    let mut conn = db.conn();
    let me = fixtures::account(&mut conn, "renamer@example.com");
    let other = fixtures::account(&mut conn, "squatter@example.com");
    set_balance(&mut conn, me.id, 5);
    let live =
        |settings: Settings, slug: &str| Settings { enabled: true, slug: Some(slug.into()), ..settings };
    let first = live(draft(&mut conn, me.id, "OldName"), "OldName");
    config::save(&mut conn, me.id, &first, noon()).unwrap();
    config::save(&mut conn, me.id, &live(first.clone(), "NewName"), noon()).unwrap();

    let moved = |conn: &mut DbConnection, slug: &str, when| match public::resolve(conn, slug, when).unwrap() {
        Some(public::Found::MovedTo(to)) => Some(to),
        _ => None,
    };
    assert_eq!(moved(&mut conn, "oldname", noon()).as_deref(), Some("NewName"));
    let mine = |slug: &str| Settings { slug: Some(slug.into()), ..Settings::default() };
    assert!(matches!(
        config::save(&mut conn, other.id, &mine("oldname"), noon()),
        Err(RigpageError::SlugTaken)
    ));

    let day = Duration::days(1);
    let late = noon() + config::RENAMED_SLUG_HOLD + day;
    assert_eq!(
        moved(&mut conn, "oldname", noon() + config::RENAMED_SLUG_HOLD - day).as_deref(),
        Some("NewName")
    );
    assert_eq!(moved(&mut conn, "oldname", late), None, "the redirect ends with the hold");
    config::save(&mut conn, other.id, &mine("oldname"), late).unwrap();

    // A second rename; then the owner takes the name back, which ends its hold.
    config::save(&mut conn, me.id, &live(first.clone(), "Third"), noon()).unwrap();
    assert_eq!(moved(&mut conn, "NewName", noon()).as_deref(), Some("Third"));
    config::save(&mut conn, me.id, &live(first.clone(), "NewName"), noon()).unwrap();
    assert!(matches!(public::resolve(&mut conn, "NewName", noon()).unwrap(), Some(public::Found::Page(_))));
    assert_eq!(moved(&mut conn, "third", noon()).as_deref(), Some("NewName"));

    // A page that was never public leaves no redirect behind.
    let quiet = fixtures::account(&mut conn, "quiet@example.com");
    config::save(&mut conn, quiet.id, &mine("Quiet1"), noon()).unwrap();
    config::save(&mut conn, quiet.id, &mine("Quiet2"), noon()).unwrap();
    assert!(public::resolve(&mut conn, "quiet1", noon()).unwrap().is_none());
    config::save(&mut conn, other.id, &mine("quiet1"), noon()).unwrap();
}

fn going_live_needs_a_slug_and_an_own_photo_setup(db: TestDb) {
    let mut conn = db.conn();
    let me = fixtures::account(&mut conn, "setup@example.com");
    let other = fixtures::account(&mut conn, "setup-other@example.com");
    let mine = fixtures::analysis(&mut conn, me.id, true, noon());
    let described = fixtures::analysis(&mut conn, me.id, false, noon());
    let theirs = fixtures::analysis(&mut conn, other.id, true, noon());
    let live = |slug: Option<&str>, setup: Option<AnalysisId>| Settings {
        enabled: true,
        slug: slug.map(str::to_owned),
        setup_id: setup,
        ..Settings::default()
    };
    let save = |conn: &mut DbConnection, s: Settings| config::save(conn, me.id, &s, noon());
    assert!(matches!(save(&mut conn, live(None, Some(mine))), Err(RigpageError::GoLiveNeedsSlugAndSetup)));
    assert!(matches!(save(&mut conn, live(Some("mine"), None)), Err(RigpageError::GoLiveNeedsSlugAndSetup)));
    assert!(matches!(save(&mut conn, live(Some("mine"), Some(theirs))), Err(RigpageError::SetupNotYours)));
    assert!(matches!(save(&mut conn, live(Some("mine"), Some(described))), Err(RigpageError::SetupNotYours)));
    assert!(matches!(
        save(&mut conn, live(Some("mine"), Some(AnalysisId(999_999)))),
        Err(RigpageError::SetupNotYours)
    ));
    assert!(!config::load(&mut conn, me.id, &me.username).unwrap().saved);
    save(&mut conn, live(Some("mine"), Some(mine))).unwrap();
}

fn the_public_page_is_private_until_live_and_shows_only_links_switched_on(db: TestDb) {
    let mut conn = db.conn();
    let me = fixtures::account(&mut conn, "public@example.com");
    let mut page = draft(&mut conn, me.id, "Public_Rig");
    page.tagline = Some("Streams nightly".into());
    page.socials.email = Some("me@example.com".into());
    page.links = links(3);
    page.links[1].enabled = false;
    config::save(&mut conn, me.id, &page, noon()).unwrap();
    assert!(public::find(&mut conn, "public_rig").unwrap().is_none(), "private until live");

    page.enabled = true;
    config::save(&mut conn, me.id, &page, noon()).unwrap();
    let found = public::find(&mut conn, "PUBLIC_RIG").unwrap().expect("any case finds it");
    assert_eq!(found.owner_id, me.id);
    assert_eq!(found.username, me.username);
    let labels: Vec<&str> = found.settings.links.iter().map(|l| l.label.as_str()).collect();
    assert_eq!(labels, ["Link 0", "Link 2"]);
    assert!(found.setup.is_some());
    assert!(!found.settings.socials.public().iter().any(|(name, _)| *name == "email"), "never the e-mail");
    assert!(public::find(&mut conn, "nobody-here").unwrap().is_none());

    // A click goes to a link of that page only, switched on.
    let saved = config::load(&mut conn, me.id, &me.username).unwrap().settings.links;
    let (on, off) = (saved[0].id.unwrap(), saved[1].id.unwrap());
    assert_eq!(
        public::link_target(&mut conn, "public_rig", on).unwrap(),
        Some((me.id, "https://example.com/0".into()))
    );
    assert_eq!(public::link_target(&mut conn, "public_rig", off).unwrap(), None);
    let other = fixtures::account(&mut conn, "public-other@example.com");
    let mut theirs = draft(&mut conn, other.id, "their_rig");
    theirs.enabled = true;
    config::save(&mut conn, other.id, &theirs, noon()).unwrap();
    assert_eq!(public::link_target(&mut conn, "their_rig", on).unwrap(), None, "not another page's link");
}

fn saved_links_keep_their_ids_and_links_left_out_are_deleted(db: TestDb) {
    let mut conn = db.conn();
    let me = fixtures::account(&mut conn, "ids@example.com");
    let other = fixtures::account(&mut conn, "ids-other@example.com");
    let mut page = draft(&mut conn, me.id, "id_rig");
    page.links = links(3);
    let saved = config::save(&mut conn, me.id, &page, noon()).unwrap().editor.settings.links;
    let ids: Vec<LinkId> = saved.iter().map(|l| l.id.unwrap()).collect();

    // Reordered, one dropped, one renamed, one new.
    let mut next = vec![saved[2].clone(), saved[0].clone()];
    next[1].label = "Renamed".into();
    next.extend(links(1));
    page.links = next;
    let after = config::save(&mut conn, me.id, &page, noon()).unwrap().editor.settings.links;
    assert_eq!(after.iter().map(|l| l.label.as_str()).collect::<Vec<_>>(), ["Link 2", "Renamed", "Link 0"]);
    assert_eq!(after[0].id, Some(ids[2]));
    assert_eq!(after[1].id, Some(ids[0]));
    assert!(!after.iter().any(|l| l.id == Some(ids[1])), "the dropped link is gone");
    assert!(!ids.contains(&after[2].id.unwrap()), "a new link gets a new id");

    // Another user cannot take over (or edit) those ids.
    let mut theirs = draft(&mut conn, other.id, "other_id_rig");
    theirs.links = vec![Link { id: Some(ids[2]), ..links(1).remove(0) }];
    let stolen = config::save(&mut conn, other.id, &theirs, noon()).unwrap().editor.settings.links;
    assert_ne!(stolen[0].id, Some(ids[2]));
    assert_eq!(config::load(&mut conn, me.id, &me.username).unwrap().settings.links[0].label, "Link 2");
}

fn visits_are_counted_per_day_for_the_owner_and_flushed_once(db: TestDb) {
    let mut conn = db.conn();
    let me = fixtures::account(&mut conn, "stats@example.com");
    let mut page = draft(&mut conn, me.id, "stats_rig");
    page.links = links(2);
    let saved = config::save(&mut conn, me.id, &page, noon()).unwrap().editor.settings.links;
    let (first, second) = (saved[0].id.unwrap(), saved[1].id.unwrap());

    let visits = Visits::new();
    let yesterday = noon() - Duration::days(1);
    for _ in 0..3 {
        visits.count_view(me.id, noon());
    }
    visits.count_view(me.id, yesterday);
    visits.count_click(second, noon());
    visits.count_click(second, yesterday);
    visits.count_click(first, noon());
    visits.count_view(me.id, noon() - Duration::days(40));
    assert_eq!(visits.flush(&mut conn).unwrap(), 6, "one write per counter");
    assert_eq!(visits.flush(&mut conn).unwrap(), 0, "nothing twice");

    let stats = visits::stats(&mut conn, me.id, noon()).unwrap();
    assert_eq!((stats.views, stats.clicks), (4, 3), "the view 40 days ago is outside the period");
    assert!((stats.click_through_rate - 0.75).abs() < 1e-9);
    assert_eq!(stats.top_link().map(|l| (l.link_id, l.clicks)), Some((second, 2)));
    assert_eq!(stats.days.len(), 30);
    let today = stats.days.last().unwrap();
    assert_eq!((today.date, today.views, today.clicks), (noon().date_naive(), 3, 2));

    // A later flush adds to the same day.
    visits.count_view(me.id, noon());
    visits.flush(&mut conn).unwrap();
    assert_eq!(visits::stats(&mut conn, me.id, noon()).unwrap().views, 5);
}

fn png_data_url(width: u32, height: u32) -> String {
    let image = image::RgbaImage::from_pixel(width, height, image::Rgba([200, 40, 90, 255]));
    let mut bytes = Vec::new();
    image.write_to(&mut std::io::Cursor::new(&mut bytes), image::ImageFormat::Png).unwrap();
    format!("data:image/png;base64,{}", base64::engine::general_purpose::STANDARD.encode(bytes))
}

async fn uploads_are_re_encoded_and_only_their_owner_may_show_them(db: TestDb) {
    let dir = tempfile::tempdir().unwrap();
    let media = MediaStore::local(dir.path());
    let clock = clock::system();
    let uploads = fixtures::uploads(&media);
    let (me, other) = {
        let mut conn = db.conn();
        (
            fixtures::account(&mut conn, "img@example.com"),
            fixtures::account(&mut conn, "img-other@example.com"),
        )
    };
    let avatar = images::upload(db.db(), &uploads, &clock, me.id, ImageKind::Avatar, png_data_url(1200, 900))
        .await
        .unwrap();
    assert!(avatar.starts_with("/media/rigpage/") && avatar.ends_with(".png"), "{avatar}");
    let stored = image::open(dir.path().join(avatar.trim_start_matches("/media/"))).unwrap();
    assert!(stored.width() <= 512 && stored.height() <= 512, "fitted to the avatar size");

    let bad = images::upload(
        db.db(),
        &uploads,
        &clock,
        me.id,
        ImageKind::Link,
        "data:image/png;base64,aGVsbG8=".into(),
    )
    .await;
    assert!(matches!(bad, Err(RigpageError::ImageInvalid)), "{bad:?}");

    let mut conn = db.conn();
    let mut page = draft(&mut conn, me.id, "img_rig");
    page.avatar = Some(avatar.clone());
    config::save(&mut conn, me.id, &page, noon()).unwrap();
    let mut theirs = draft(&mut conn, other.id, "img_other");
    theirs.avatar = Some(avatar.clone());
    assert!(matches!(
        config::save(&mut conn, other.id, &theirs, noon()),
        Err(RigpageError::ImageNotYours { field }) if field == "rigpageAvatar"
    ));

    // Replacing the avatar hands the old one back for removal.
    drop(conn);
    let newer = images::upload(db.db(), &uploads, &clock, me.id, ImageKind::Avatar, png_data_url(64, 64))
        .await
        .unwrap();
    let mut conn = db.conn();
    page.avatar = Some(newer);
    let saved = config::save(&mut conn, me.id, &page, noon()).unwrap();
    assert_eq!(saved.unused_media.iter().map(|k| k.url()).collect::<Vec<_>>(), [avatar]);
    assert_eq!(images::media_of_user(&mut conn, me.id).unwrap().len(), 1, "the replaced upload is forgotten");
    accounts::delete_account(&mut conn, me.id, noon()).unwrap();
    assert!(images::media_of_user(&mut conn, me.id).unwrap().is_empty());
}

async fn an_upload_the_safety_classifier_cannot_check_is_refused_and_not_kept(db: TestDb) {
    let dir = tempfile::tempdir().unwrap();
    let media = MediaStore::local(dir.path().join("media"));
    let me = fixtures::account(&mut db.conn(), "unscreened@example.com");
    // No models here: the classifier cannot answer, so the upload fails closed.
    let blind = fixtures::uploads_with_models(&media, dir.path().join("no-models"));
    let res =
        images::upload(db.db(), &blind, &clock::system(), me.id, ImageKind::Avatar, png_data_url(8, 8)).await;
    assert!(matches!(res, Err(RigpageError::Upload(UploadError::Failed(_)))), "{res:?}");
    assert!(
        !dir.path().join("media").exists()
            || std::fs::read_dir(dir.path().join("media")).unwrap().next().is_none()
    );
    assert!(images::media_of_user(&mut db.conn(), me.id).unwrap().is_empty());
}

async fn parallel_uploads_respect_the_hourly_limit(db: TestDb) {
    let dir = tempfile::tempdir().unwrap();
    let media = MediaStore::local(dir.path());
    let clock = clock::system();
    let me = fixtures::account(&mut db.conn(), "parallel-uploads@example.com");
    // A queue that lets all of them in at once: only the hourly limit may stop them.
    let uploads = Uploads::new(ImageQueue::new(64, 64), Arc::new(UncheckedWorker), media.clone());
    let attempts = (0..40)
        .map(|_| images::upload(db.db(), &uploads, &clock, me.id, ImageKind::Link, png_data_url(16, 16)));
    let results = futures_util::future::join_all(attempts).await;
    let stored = results.iter().filter(|r| r.is_ok()).count();
    let refused = results.iter().filter(|r| matches!(r, Err(RigpageError::TooManyUploads))).count();
    assert_eq!((stored, refused), (30, 10), "{results:?}");
    assert_eq!(images::media_of_user(&mut db.conn(), me.id).unwrap().len(), 30);
    assert_eq!(std::fs::read_dir(dir.path().join("rigpage")).unwrap().count(), 30);
}

async fn a_huge_picture_is_refused_from_its_header_before_it_counts(db: TestDb) {
    let dir = tempfile::tempdir().unwrap();
    let media = MediaStore::local(dir.path());
    let me = fixtures::account(&mut db.conn(), "bomb-upload@example.com");
    let uploads = fixtures::uploads(&media);
    for bomb in [
        fixtures::data_url("image/png", &fixtures::png_header(12_000, 12_000)),
        fixtures::data_url("image/webp", &fixtures::webp_bomb(12_000, 12_000)),
    ] {
        let res =
            images::upload(db.db(), &uploads, &clock::system(), me.id, ImageKind::Background, bomb).await;
        assert!(
            matches!(
                &res,
                Err(RigpageError::ImageTooLarge(UploadRejection::TooManyPixels {
                    width: 12_000,
                    height: 12_000
                }))
            ),
            "{res:?}"
        );
    }
    assert!(images::media_of_user(&mut db.conn(), me.id).unwrap().is_empty(), "nothing recorded");
    assert_eq!(uploads.queue().in_flight(), 0);
}
