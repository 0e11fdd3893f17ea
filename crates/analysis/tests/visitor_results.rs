//! A visitor's free result, kept for their browser and saved to the account they sign up or
//! sign in to right after, on both databases: claimed once, by that browser only, while it
//! is kept, with no credit taken and the trial still used.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use chrono::{DateTime, Duration, TimeZone, Utc};
use setupiq_analysis::AnalysisError;
use setupiq_analysis::service::visitor::{self, KeptResult};
use setupiq_analysis::service::{self, InputType, Report, suggestions};
use setupiq_analyzer::{AnalyzerName, text};
use setupiq_auth::service::ledger;
use setupiq_core::media::{MediaKey, MediaKind};
use setupiq_db::DbConnection;
use setupiq_test_utils::fixtures::FIXTURE_SETUP;
use setupiq_test_utils::{TestDb, both_backends, fixtures};

both_backends!(
    the_account_gets_the_visitors_result_without_a_credit,
    a_result_is_claimed_once,
    another_browser_cannot_claim_it,
    an_unclaimed_result_expires_with_its_photos,
    concurrent_sign_ins_save_it_once,
    a_result_is_kept_only_with_the_trial,
);

const KEEP: Duration = Duration::minutes(60);

fn noon() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 5, 4, 12, 0, 0).unwrap()
}

fn browser(n: u8) -> String {
    char::from(b'a' + n).to_string().repeat(64)
}

fn report(conn: &mut DbConnection) -> Report {
    let assessment = text::assess(FIXTURE_SETUP).unwrap();
    let suggestions = suggestions::suggest(conn, &assessment).unwrap();
    Report::new(assessment, suggestions, AnalyzerName::Local)
}

/// Claims `visitor`'s trial with a photo result kept; returns the report and the photo keys.
fn keep_photo(conn: &mut DbConnection, visitor: &str, at: DateTime<Utc>) -> (Report, MediaKey, MediaKey) {
    let report = report(conn);
    let (photo, thumb) = (
        MediaKey::generate("analyses", MediaKind::Jpeg),
        MediaKey::generate("analysis_thumbs", MediaKind::Jpeg),
    );
    let kept = KeptResult {
        input_type: InputType::Image,
        input_text: Some("my desk"),
        image: Some(&photo),
        thumbnail: Some(&thumb),
        report: &report,
    };
    visitor::claim_trial_keeping(conn, visitor, "203.0.113.9", &kept, at, KEEP).unwrap();
    (report, photo, thumb)
}

fn the_account_gets_the_visitors_result_without_a_credit(db: TestDb) {
    let mut conn = db.conn();
    let (report, photo, thumb) = keep_photo(&mut conn, &browser(0), noon());
    let me = fixtures::account(&mut conn, "claim@example.com");
    let balance = ledger::balance(&mut conn, me.id).unwrap();

    let later = noon() + Duration::minutes(10);
    let claimed = visitor::claim(&mut conn, &browser(0), me.id, later).unwrap().expect("claimed");

    // In My Setups, as the visitor got it, made when they made it, photo and note kept.
    let (mine, total) = service::list_for_owner(&mut conn, me.id, 50, 0).unwrap();
    assert_eq!(total, 1);
    let saved = &mine[0];
    assert_eq!(saved.id, claimed.id);
    assert_eq!(saved.report.assessment.overall_score, report.assessment.overall_score);
    assert_eq!(saved.report.suggestions, report.suggestions);
    assert_eq!(saved.input_type, InputType::Image);
    assert_eq!(saved.input_text.as_deref(), Some("my desk"));
    assert_eq!((saved.image.as_ref(), saved.thumbnail.as_ref()), (Some(&photo), Some(&thumb)));
    assert_eq!(saved.created_at, noon());
    // It is the account's like any other: it can be shared.
    let token = service::share::share(&mut conn, me.id, claimed.id).unwrap();
    assert_eq!(service::share::find_shared(&mut conn, &token).unwrap().id, claimed.id);

    // No credit taken; the visitor's free trial stays used.
    assert_eq!(ledger::balance(&mut conn, me.id).unwrap(), balance);
    let again = service::check_trial(&mut conn, &browser(0), "198.51.100.1", later);
    assert!(matches!(again, Err(AnalysisError::TrialUsed)), "{again:?}");
    // Its photos are still named: the media sweep keeps them.
    let named = service::media_named(&mut conn).unwrap();
    assert!(named.contains(&photo) && named.contains(&thumb));
}

fn a_result_is_claimed_once(db: TestDb) {
    let mut conn = db.conn();
    keep_photo(&mut conn, &browser(1), noon());
    let me = fixtures::account(&mut conn, "once@example.com");
    let other = fixtures::account(&mut conn, "once-other@example.com");
    assert!(visitor::claim(&mut conn, &browser(1), me.id, noon()).unwrap().is_some());
    // Signing in again from that browser (or to another account) saves nothing more.
    assert!(visitor::claim(&mut conn, &browser(1), me.id, noon()).unwrap().is_none());
    assert!(visitor::claim(&mut conn, &browser(1), other.id, noon()).unwrap().is_none());
    assert_eq!(service::list_for_owner(&mut conn, me.id, 50, 0).unwrap().1, 1);
    assert_eq!(service::list_for_owner(&mut conn, other.id, 50, 0).unwrap().1, 0);
}

fn another_browser_cannot_claim_it(db: TestDb) {
    let mut conn = db.conn();
    keep_photo(&mut conn, &browser(2), noon());
    let thief = fixtures::account(&mut conn, "thief@example.com");
    let owner = fixtures::account(&mut conn, "owner@example.com");
    assert!(visitor::claim(&mut conn, &browser(3), thief.id, noon()).unwrap().is_none());
    assert_eq!(service::list_for_owner(&mut conn, thief.id, 50, 0).unwrap().1, 0);
    // The browser that made it still can.
    assert!(visitor::claim(&mut conn, &browser(2), owner.id, noon()).unwrap().is_some());
}

fn an_unclaimed_result_expires_with_its_photos(db: TestDb) {
    let mut conn = db.conn();
    let (_, photo, thumb) = keep_photo(&mut conn, &browser(4), noon());
    let me = fixtures::account(&mut conn, "late@example.com");

    // While it is kept, nothing purges it and the sweep keeps its photos.
    let almost = noon() + KEEP - Duration::seconds(1);
    assert!(visitor::purge_expired(&mut conn, almost).unwrap().is_empty());
    assert!(service::media_named(&mut conn).unwrap().contains(&photo));

    // Past its time it is not claimed...
    let late = noon() + KEEP;
    assert!(visitor::claim(&mut conn, &browser(4), me.id, late).unwrap().is_none());
    assert_eq!(service::list_for_owner(&mut conn, me.id, 50, 0).unwrap().1, 0);
    // ...and goes with its photos, once.
    let mut purged = visitor::purge_expired(&mut conn, late).unwrap();
    purged.sort_by(|a, b| a.as_str().cmp(b.as_str()));
    let mut expected = vec![photo.clone(), thumb.clone()];
    expected.sort_by(|a, b| a.as_str().cmp(b.as_str()));
    assert_eq!(purged, expected);
    assert!(visitor::purge_expired(&mut conn, late).unwrap().is_empty());
    let named = service::media_named(&mut conn).unwrap();
    assert!(!named.contains(&photo) && !named.contains(&thumb));
    // The trial stays used all the same.
    assert!(matches!(
        service::check_trial(&mut conn, &browser(4), "198.51.100.1", late),
        Err(AnalysisError::TrialUsed)
    ));
}

fn concurrent_sign_ins_save_it_once(db: TestDb) {
    let (first, second) = {
        let mut conn = db.conn();
        keep_photo(&mut conn, &browser(5), noon());
        (
            fixtures::account(&mut conn, "race-a@example.com"),
            fixtures::account(&mut conn, "race-b@example.com"),
        )
    };
    let results: Vec<_> = std::thread::scope(|scope| {
        let attempts: Vec<_> = (0..8)
            .map(|i| {
                let pool = db.db().clone();
                let user = if i % 2 == 0 { first.id } else { second.id };
                scope.spawn(move || {
                    let mut conn = pool.conn().unwrap();
                    visitor::claim(&mut conn, &browser(5), user, noon())
                })
            })
            .collect();
        attempts.into_iter().map(|a| a.join().unwrap()).collect()
    });
    let claimed = results.iter().filter(|r| matches!(r, Ok(Some(_)))).count();
    let nothing = results.iter().filter(|r| matches!(r, Ok(None))).count();
    assert_eq!((claimed, nothing), (1, 7), "{results:?}");
    let mut conn = db.conn();
    let saved = service::list_for_owner(&mut conn, first.id, 50, 0).unwrap().1
        + service::list_for_owner(&mut conn, second.id, 50, 0).unwrap().1;
    assert_eq!(saved, 1);
}

fn a_result_is_kept_only_with_the_trial(db: TestDb) {
    let mut conn = db.conn();
    keep_photo(&mut conn, &browser(6), noon());
    let report = report(&mut conn);
    let kept = KeptResult {
        input_type: InputType::Text,
        input_text: Some(FIXTURE_SETUP),
        image: None,
        thumbnail: None,
        report: &report,
    };
    let second = visitor::claim_trial_keeping(&mut conn, &browser(6), "203.0.113.9", &kept, noon(), KEEP);
    assert!(matches!(second, Err(AnalysisError::TrialUsed)), "{second:?}");
    // The first result is the one kept.
    let me = fixtures::account(&mut conn, "kept@example.com");
    let claimed = visitor::claim(&mut conn, &browser(6), me.id, noon()).unwrap().unwrap();
    assert_eq!(claimed.input_type, InputType::Image);
}
