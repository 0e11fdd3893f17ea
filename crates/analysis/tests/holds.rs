//! The one photo analysis an account (or anonymous visitor) may have in flight, taken only
//! with the credit there, on both databases.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use chrono::{Duration, TimeZone, Utc};
use setupiq_analysis::AnalysisError;
use setupiq_analysis::service::{self, HOLD_FOR, Requester};
use setupiq_auth::service::ledger::{self, LedgerReason};
use setupiq_core::UserId;
use setupiq_test_utils::{TestDb, both_backends, fixtures};

both_backends!(
    one_photo_analysis_at_a_time_and_only_with_a_credit,
    a_visitor_holds_their_free_analysis,
    parallel_holds_on_one_credit_admit_exactly_one,
);

fn noon() -> chrono::DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 5, 4, 12, 0, 0).unwrap()
}

fn user(id: UserId, is_pro: bool) -> Requester {
    // `credits` is the session's stale view: the hold reads the balance itself.
    Requester::User { id, is_pro, credits: 99 }
}

fn one_photo_analysis_at_a_time_and_only_with_a_credit(db: TestDb) {
    let mut conn = db.conn();
    let me = fixtures::account(&mut conn, "hold@example.com");
    let hold = service::take_hold(&mut conn, &user(me.id, false), noon()).unwrap();
    let again = service::take_hold(&mut conn, &user(me.id, false), noon());
    assert!(matches!(again, Err(AnalysisError::AlreadyRunning)), "{again:?}");
    service::release_hold(&mut conn, &hold).unwrap();
    let next = service::take_hold(&mut conn, &user(me.id, false), noon()).unwrap();

    // A hold whose process died stops counting once it expires.
    let later = noon() + HOLD_FOR + Duration::seconds(1);
    let after_crash = service::take_hold(&mut conn, &user(me.id, false), later).unwrap();
    // The old one's release does not free the new one.
    service::release_hold(&mut conn, &next).unwrap();
    assert!(matches!(
        service::take_hold(&mut conn, &user(me.id, false), later),
        Err(AnalysisError::AlreadyRunning)
    ));
    service::release_hold(&mut conn, &after_crash).unwrap();

    // No credit: 402 before any work; Pro needs none.
    let balance = ledger::balance(&mut conn, me.id).unwrap();
    ledger::apply(&mut conn, me.id, -balance, &LedgerReason::Spend("test".into()), None, noon()).unwrap();
    let broke = service::take_hold(&mut conn, &user(me.id, false), noon());
    assert!(matches!(broke, Err(AnalysisError::InsufficientCredits)), "{broke:?}");
    service::take_hold(&mut conn, &user(me.id, true), noon()).unwrap();
}

fn a_visitor_holds_their_free_analysis(db: TestDb) {
    let mut conn = db.conn();
    let visitor = Requester::Visitor { visitor_hash: "v".repeat(64), ip: "203.0.113.9".into() };
    let hold = service::take_hold(&mut conn, &visitor, noon()).unwrap();
    assert!(matches!(service::take_hold(&mut conn, &visitor, noon()), Err(AnalysisError::AlreadyRunning)));
    service::claim_trial(&mut conn, &"v".repeat(64), "203.0.113.9", noon()).unwrap();
    service::release_hold(&mut conn, &hold).unwrap();
    let used = service::take_hold(&mut conn, &visitor, noon());
    assert!(matches!(used, Err(AnalysisError::TrialUsed)), "{used:?}");
}

fn parallel_holds_on_one_credit_admit_exactly_one(db: TestDb) {
    let me = fixtures::account(&mut db.conn(), "parallel-hold@example.com");
    let results: Vec<_> = std::thread::scope(|scope| {
        let attempts: Vec<_> = (0..12)
            .map(|_| {
                let pool = db.db().clone();
                scope.spawn(move || {
                    let mut conn = pool.conn().unwrap();
                    service::take_hold(&mut conn, &user(me.id, false), noon())
                })
            })
            .collect();
        attempts.into_iter().map(|a| a.join().unwrap()).collect()
    });
    let held = results.iter().filter(|r| r.is_ok()).count();
    let refused = results.iter().filter(|r| matches!(r, Err(AnalysisError::AlreadyRunning))).count();
    assert_eq!((held, refused), (1, 11), "{results:?}");
}
