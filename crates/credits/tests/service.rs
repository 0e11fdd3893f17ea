//! Credits on both databases: ads (3-second rule, once per token, daily cap, midnight),
//! test-mode purchases credited exactly once, deductions never below zero. After every
//! scenario the balance equals the sum of the ledger.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;

use chrono::{DateTime, Duration, TimeZone, Utc};
use setupiq_auth::service::{accounts, ledger};
use setupiq_core::SharedClock;
use setupiq_core::UserId;
use setupiq_core::clock::ManualClock;
use setupiq_core::config::ProPrices;
use setupiq_credits::CreditsError;
use setupiq_credits::PaymentProvider;
use setupiq_credits::payments::test_mode;
use setupiq_credits::service::pro::{self, Plan, SubscriptionStatus};
use setupiq_credits::service::{ads, balance, purchases};
use setupiq_db::{AppCtx, DbConnection};
use setupiq_test_utils::{TestDb, both_backends, both_backends_async, fixtures};

fn noon() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 5, 4, 12, 0, 0).single().unwrap()
}

fn balance_of(conn: &mut DbConnection, user_id: UserId) -> i32 {
    accounts::find(conn, user_id).unwrap().unwrap().credits
}

fn assert_consistent(conn: &mut DbConnection, user_id: UserId) {
    assert!(ledger::balance_matches_ledger(conn, user_id).unwrap(), "balance == sum of ledger");
}

/// Watches `n` ads properly (start, 3 s, claim) starting at `at`.
fn watch_ads(conn: &mut DbConnection, user_id: UserId, n: usize, at: DateTime<Utc>) -> Vec<ads::AdReward> {
    (0..n)
        .map(|i| {
            let start = at + Duration::seconds(10 * i as i64);
            let token = ads::start(conn, user_id, start).unwrap();
            ads::claim(conn, user_id, &token, start + Duration::seconds(3)).unwrap()
        })
        .collect()
}

both_backends!(
    an_ad_counts_after_three_seconds_and_only_once,
    twenty_simultaneous_claims_of_one_token_count_once,
    the_daily_cap_holds_under_simultaneous_claims,
    ads_started_side_by_side_count_one_at_a_time,
    the_cap_resets_at_utc_midnight,
    deductions_never_take_the_balance_below_zero,
);

fn an_ad_counts_after_three_seconds_and_only_once(db: TestDb) {
    let mut conn = db.conn();
    let me = fixtures::account(&mut conn, "ads@example.com");
    let t0 = noon();
    let token = ads::start(&mut conn, me.id, t0).unwrap();
    assert!(matches!(
        ads::claim(&mut conn, me.id, &token, t0 + Duration::milliseconds(2999)),
        Err(CreditsError::AdTooShort)
    ));
    let first = ads::claim(&mut conn, me.id, &token, t0 + Duration::seconds(3)).unwrap();
    assert_eq!(
        first,
        ads::AdReward {
            credit_awarded: false,
            credits: 3,
            ads_until_next_credit: 2,
            ads_watched_in_session: 1
        }
    );
    assert!(matches!(
        ads::claim(&mut conn, me.id, &token, t0 + Duration::seconds(9)),
        Err(CreditsError::AdAlreadyCounted)
    ));
    let other = fixtures::account(&mut conn, "thief@example.com");
    let stolen = ads::start(&mut conn, me.id, t0).unwrap();
    assert!(matches!(
        ads::claim(&mut conn, other.id, &stolen, t0 + Duration::seconds(5)),
        Err(CreditsError::InvalidAdToken)
    ));
    assert!(matches!(
        ads::claim(&mut conn, me.id, "made-up", t0 + Duration::seconds(5)),
        Err(CreditsError::InvalidAdToken)
    ));

    let rewards = watch_ads(&mut conn, me.id, 2, t0 + Duration::minutes(1));
    assert_eq!(
        rewards[1],
        ads::AdReward {
            credit_awarded: true,
            credits: 4,
            ads_until_next_credit: 3,
            ads_watched_in_session: 0
        }
    );
    let stats = ads::stats(&mut conn, me.id, t0 + Duration::minutes(2)).unwrap();
    assert_eq!(
        stats,
        ads::AdStats {
            daily_ads_remaining: 27,
            potential_credits_today: 9,
            uncredited_ads: 0,
            ads_until_next_credit: 3
        }
    );
    assert_consistent(&mut conn, me.id);
}

fn twenty_simultaneous_claims_of_one_token_count_once(db: TestDb) {
    let me = fixtures::account(&mut db.conn(), "race@example.com");
    let t0 = noon();
    let token = ads::start(&mut db.conn(), me.id, t0).unwrap();
    let results: Vec<_> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..20)
            .map(|_| s.spawn(|| ads::claim(&mut db.conn(), me.id, &token, t0 + Duration::seconds(4))))
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert_eq!(results.iter().filter(|r| r.is_ok()).count(), 1, "{results:?}");
    assert!(results.iter().filter(|r| r.is_err()).all(|r| matches!(r, Err(CreditsError::AdAlreadyCounted))));
    assert_eq!(ads::stats(&mut db.conn(), me.id, t0).unwrap().uncredited_ads, 1);
}

fn the_daily_cap_holds_under_simultaneous_claims(db: TestDb) {
    let me = fixtures::account(&mut db.conn(), "cap@example.com");
    let t0 = noon();
    watch_ads(&mut db.conn(), me.id, 29, t0);
    let last = ads::start(&mut db.conn(), me.id, t0 + Duration::hours(1)).unwrap();
    let results: Vec<_> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..6)
            .map(|_| {
                s.spawn(|| {
                    ads::claim(&mut db.conn(), me.id, &last, t0 + Duration::hours(1) + Duration::seconds(5))
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert_eq!(results.iter().filter(|r| r.is_ok()).count(), 1, "{results:?}");
    let mut conn = db.conn();
    assert_eq!(balance_of(&mut conn, me.id), 3 + 10, "30 ads, 10 credits, no more");
    assert!(matches!(ads::start(&mut conn, me.id, t0 + Duration::hours(2)), Err(CreditsError::DailyAdLimit)));
    assert!(CreditsError::DailyAdLimit.to_string().contains("Daily ad watch limit reached"));
    assert_eq!(ads::stats(&mut conn, me.id, t0 + Duration::hours(2)).unwrap().daily_ads_remaining, 0);
    assert_consistent(&mut conn, me.id);
}

fn ads_started_side_by_side_count_one_at_a_time(db: TestDb) {
    let me = fixtures::account(&mut db.conn(), "tabs@example.com");
    let t0 = noon();
    let tokens: Vec<String> = std::thread::scope(|s| {
        let handles: Vec<_> =
            (0..20).map(|_| s.spawn(|| ads::start(&mut db.conn(), me.id, t0).unwrap())).collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let results: Vec<_> = std::thread::scope(|s| {
        let handles: Vec<_> = tokens
            .iter()
            .map(|token| s.spawn(|| ads::claim(&mut db.conn(), me.id, token, t0 + Duration::seconds(3))))
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert_eq!(results.iter().filter(|r| r.is_ok()).count(), 1, "one ad in flight: {results:?}");
    assert!(results.iter().filter(|r| r.is_err()).all(|r| matches!(r, Err(CreditsError::InvalidAdToken))));
    assert_eq!(ads::stats(&mut db.conn(), me.id, t0).unwrap().uncredited_ads, 1);

    // Starting another ends the first; the new one counts from its own start.
    let first = ads::start(&mut db.conn(), me.id, t0 + Duration::minutes(1)).unwrap();
    let second = ads::start(&mut db.conn(), me.id, t0 + Duration::minutes(1) + Duration::seconds(2)).unwrap();
    let later = t0 + Duration::minutes(1) + Duration::seconds(4);
    assert!(matches!(ads::claim(&mut db.conn(), me.id, &first, later), Err(CreditsError::InvalidAdToken)));
    assert!(matches!(ads::claim(&mut db.conn(), me.id, &second, later), Err(CreditsError::AdTooShort)));
    assert!(ads::claim(&mut db.conn(), me.id, &second, later + Duration::seconds(1)).is_ok());
    assert_consistent(&mut db.conn(), me.id);
}

fn the_cap_resets_at_utc_midnight(db: TestDb) {
    let mut conn = db.conn();
    let me = fixtures::account(&mut conn, "night@example.com");
    let evening = Utc.with_ymd_and_hms(2026, 5, 4, 23, 0, 0).single().unwrap();
    watch_ads(&mut conn, me.id, 30, evening);
    let late = Utc.with_ymd_and_hms(2026, 5, 4, 23, 59, 58).single().unwrap();
    assert!(matches!(ads::start(&mut conn, me.id, late), Err(CreditsError::DailyAdLimit)));
    let after_midnight = late + Duration::seconds(3);
    let token = ads::start(&mut conn, me.id, after_midnight).unwrap();
    let reward = ads::claim(&mut conn, me.id, &token, after_midnight + Duration::seconds(3)).unwrap();
    assert_eq!(reward.ads_watched_in_session, 1);
    assert_eq!(ads::stats(&mut conn, me.id, after_midnight).unwrap().daily_ads_remaining, 29);
    assert_consistent(&mut conn, me.id);
}

fn deductions_never_take_the_balance_below_zero(db: TestDb) {
    let mut conn = db.conn();
    let me = fixtures::account(&mut conn, "spend@example.com");
    assert!(matches!(
        balance::deduct(&mut conn, me.id, 4, "rigpage_publish", noon()),
        Err(CreditsError::Auth(setupiq_auth::AuthError::InsufficientCredits { needed: 4, available: 3 }))
    ));
    assert_eq!(balance::deduct(&mut conn, me.id, 3, "rigpage_publish", noon()).unwrap(), 0);
    let history = balance::history(&mut conn, me.id).unwrap();
    assert_eq!(
        history.iter().map(|e| (e.amount, e.reason.to_string())).collect::<Vec<_>>(),
        vec![(-3, "spend:rigpage_publish".to_owned()), (3, "signup_bonus".to_owned())]
    );
    assert_consistent(&mut conn, me.id);
}

/// A test's handles ([`AppCtx`]) over its database and clock, its receipts going to an
/// outbox folder of its own.
struct Outbox {
    _dir: tempfile::TempDir,
    ctx: AppCtx,
}

impl Outbox {
    fn new(db: &TestDb, clock: &SharedClock) -> Arc<Self> {
        let dir = tempfile::tempdir().unwrap();
        let ctx = fixtures::ctx(db.db(), clock.clone(), dir.path());
        Arc::new(Self { _dir: dir, ctx })
    }

    /// The receipts sent so far, as (recipient, text).
    fn sent(&self) -> Vec<String> {
        std::fs::read_dir(self.ctx.config.outbox_dir())
            .map(|entries| entries.map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap()).collect())
            .unwrap_or_default()
    }
}

fn clock() -> (Arc<ManualClock>, SharedClock) {
    let manual = Arc::new(ManualClock::new(noon()));
    (manual.clone(), manual)
}

both_backends_async!(
    a_pro_subscription_is_paid_renewed_cancelled_and_ended_on_the_clock,
    a_test_mode_purchase_is_credited_once,
    eight_simultaneous_confirmations_credit_once,
    a_declined_card_credits_nothing,
);

async fn a_pro_subscription_is_paid_renewed_cancelled_and_ended_on_the_clock(db: TestDb) {
    let (manual, clock) = clock();
    let outbox = Outbox::new(&db, &clock);
    let provider = PaymentProvider::TestMode;
    let prices = ProPrices::default();
    let me = fixtures::account(&mut db.conn(), "pro@example.com");
    let is_pro = |db: &TestDb| accounts::find(&mut db.conn(), me.id).unwrap().unwrap().is_pro;

    let started = pro::subscribe(&outbox.ctx, &provider, me.id, Plan::Monthly).await.unwrap();
    let again = pro::subscribe(&outbox.ctx, &provider, me.id, Plan::Monthly).await.unwrap();
    assert_eq!(again.intent_id, started.intent_id, "asked twice before paying: the same payment");
    assert!(!is_pro(&db) && pro::membership(&mut db.conn(), me.id).unwrap().subscription.is_none());

    test_mode::pay(&mut db.conn(), me.id, &started.intent_id, "4242 4242 4242 4242", noon()).unwrap();
    let paid = purchases::confirm(&outbox.ctx, &provider, me.id, started.intent_id.clone()).await.unwrap();
    let month_later = Utc.with_ymd_and_hms(2026, 6, 4, 12, 0, 0).single().unwrap();
    assert_eq!((paid.credits_added, paid.pro_until), (0, Some(month_later)));
    assert!(is_pro(&db));
    assert_eq!(balance_of(&mut db.conn(), me.id), 3, "Pro buys no credits");
    let sent = outbox.sent();
    assert_eq!(sent.len(), 1);
    assert!(sent[0].contains("Subject: Your SetupIQ receipt: SetupIQ Pro, monthly"), "{}", sent[0]);
    assert!(
        sent[0].contains("Amount paid: $4.99") && sent[0].contains("Your Pro membership is active."),
        "{}",
        sent[0]
    );
    assert!(matches!(
        pro::subscribe(&outbox.ctx, &provider, me.id, Plan::Yearly).await,
        Err(CreditsError::AlreadyPro)
    ));
    // An admin's grant withdrawn: the paid subscription keeps Pro.
    accounts::set_pro(&mut db.conn(), me.id, false, noon()).unwrap();
    assert!(is_pro(&db));

    // The period ends: the test card pays the next one, from where the first ended.
    manual.set(month_later + Duration::minutes(1));
    pro::settle(&outbox.ctx, &provider, None).await.unwrap();
    let renewed = pro::membership(&mut db.conn(), me.id).unwrap().subscription.unwrap();
    assert_eq!(
        renewed.current_period_end,
        Some(Utc.with_ymd_and_hms(2026, 7, 4, 12, 0, 0).single().unwrap())
    );
    assert!(is_pro(&db));
    assert_eq!(outbox.sent().len(), 2, "the renewal's receipt");
    assert!(pro::settle_due(&mut db.conn(), None, prices, clock.now()).unwrap().is_empty(), "settled once");

    // Cancelled, resumed, cancelled: Pro stays until the period's end, then ends.
    assert!(pro::cancel(&outbox.ctx, &provider, me.id).await.unwrap().cancel_at_period_end);
    assert!(!pro::resume(&outbox.ctx, &provider, me.id).await.unwrap().cancel_at_period_end);
    pro::cancel(&outbox.ctx, &provider, me.id).await.unwrap();
    manual.set(Utc.with_ymd_and_hms(2026, 7, 4, 11, 59, 0).single().unwrap());
    pro::settle(&outbox.ctx, &provider, Some(me.id)).await.unwrap();
    assert!(is_pro(&db), "paid until the period ends");
    manual.set(Utc.with_ymd_and_hms(2026, 7, 4, 12, 0, 0).single().unwrap());
    pro::settle(&outbox.ctx, &provider, Some(me.id)).await.unwrap();
    let ended = pro::membership(&mut db.conn(), me.id).unwrap();
    assert!(!ended.is_pro && !ended.granted);
    assert_eq!(ended.subscription.map(|s| s.status), Some(SubscriptionStatus::Canceled));
    assert_eq!(outbox.sent().len(), 2, "nothing charged after a cancel");
    assert!(matches!(pro::cancel(&outbox.ctx, &provider, me.id).await, Err(CreditsError::NoSubscription)));

    // A new subscription after the end is a new start.
    let restarted = pro::subscribe(&outbox.ctx, &provider, me.id, Plan::Yearly).await.unwrap();
    assert_ne!(restarted.subscription_id, started.subscription_id);
    assert_consistent(&mut db.conn(), me.id);

    // With a Stripe key, Pro is not sold yet (Stripe Billing is not built).
    let stripe = PaymentProvider::Stripe {
        client: setupiq_credits::payments::stripe::StripeProvider::new(
            &setupiq_core::config::Secret::new("sk_test_x"),
            Some("http://127.0.0.1:9"),
        )
        .unwrap(),
        webhook_secret: None,
        pro_product: None,
    };
    assert!(matches!(
        pro::subscribe(&outbox.ctx, &stripe, me.id, Plan::Monthly).await,
        Err(CreditsError::SubscriptionsUnavailable)
    ));
}

async fn a_test_mode_purchase_is_credited_once(db: TestDb) {
    let (_, clock) = clock();
    let outbox = Outbox::new(&db, &clock);
    let provider = PaymentProvider::TestMode;
    let me = fixtures::account(&mut db.conn(), "buyer@example.com");
    let started = purchases::create(&outbox.ctx, &provider, me.id, "starter").await.unwrap();
    assert!(
        started.intent_id.starts_with("pi_test_") && started.client_secret.starts_with(&started.intent_id)
    );

    let unpaid = purchases::confirm(&outbox.ctx, &provider, me.id, started.intent_id.clone()).await;
    assert!(
        matches!(unpaid, Err(CreditsError::PaymentNotSuccessful(ref m)) if m == "Payment was not successful. Please try again.")
    );
    test_mode::pay(&mut db.conn(), me.id, &started.intent_id, "4242 4242 4242 4242", noon()).unwrap();
    let done = purchases::confirm(&outbox.ctx, &provider, me.id, started.intent_id.clone()).await.unwrap();
    assert_eq!((done.credits_added, done.new_balance), (10, 13));
    let again = purchases::confirm(&outbox.ctx, &provider, me.id, started.intent_id.clone()).await.unwrap();
    assert_eq!((again.credits_added, again.new_balance), (0, 13), "a replay credits nothing and says so");
    let sent = outbox.sent();
    assert_eq!(sent.len(), 1, "one receipt, for the confirmation that credited it");
    for line in [
        "Subject: Your SetupIQ receipt: Starter Pack (10 credits)",
        "Amount paid: $4.99",
        "no card was charged",
    ] {
        assert!(sent[0].contains(line), "{line:?} in {}", sent[0]);
    }
    assert!(sent[0].contains(&format!("/receipts/{}", started.intent_id)), "{}", sent[0]);
    assert_eq!(balance_of(&mut db.conn(), me.id), 13);
    assert_consistent(&mut db.conn(), me.id);

    let stranger = fixtures::account(&mut db.conn(), "stranger@example.com");
    let theirs = purchases::confirm(&outbox.ctx, &provider, stranger.id, started.intent_id).await;
    assert!(matches!(theirs, Err(CreditsError::PaymentNotFound)));
    assert!(matches!(
        purchases::create(&outbox.ctx, &provider, me.id, "mega").await,
        Err(CreditsError::UnknownPackage)
    ));
}

async fn eight_simultaneous_confirmations_credit_once(db: TestDb) {
    let (_, clock) = clock();
    let outbox = Outbox::new(&db, &clock);
    let provider = PaymentProvider::TestMode;
    let me = fixtures::account(&mut db.conn(), "eight@example.com");
    let started = purchases::create(&outbox.ctx, &provider, me.id, "value").await.unwrap();
    test_mode::pay(&mut db.conn(), me.id, &started.intent_id, "4242424242424242", noon()).unwrap();
    let confirmations: Vec<_> = (0..8)
        .map(|_| {
            let (provider, id, outbox) = (provider.clone(), started.intent_id.clone(), outbox.clone());
            actix_web::rt::spawn(async move { purchases::confirm(&outbox.ctx, &provider, me.id, id).await })
        })
        .collect();
    let mut added = Vec::new();
    for confirmation in confirmations {
        let done = confirmation.await.unwrap().unwrap();
        assert_eq!(done.new_balance, 103);
        added.push(done.credits_added);
    }
    added.sort_unstable();
    assert_eq!(
        added,
        [0, 0, 0, 0, 0, 0, 0, 100],
        "the first confirmation reports the credits, the others none"
    );
    assert_eq!(outbox.sent().len(), 1, "one receipt");
    assert_eq!(balance_of(&mut db.conn(), me.id), 103);
    assert_consistent(&mut db.conn(), me.id);
}

async fn a_declined_card_credits_nothing(db: TestDb) {
    let (_, clock) = clock();
    let outbox = Outbox::new(&db, &clock);
    let provider = PaymentProvider::TestMode;
    let me = fixtures::account(&mut db.conn(), "declined@example.com");
    let started = purchases::create(&outbox.ctx, &provider, me.id, "popular").await.unwrap();
    let declined = test_mode::pay(&mut db.conn(), me.id, &started.intent_id, "4000 0000 0000 0002", noon());
    assert!(matches!(declined, Err(CreditsError::CardDeclined)));
    assert!(matches!(
        test_mode::pay(&mut db.conn(), me.id, &started.intent_id, "1234", noon()),
        Err(CreditsError::InvalidCard)
    ));
    let confirm = purchases::confirm(&outbox.ctx, &provider, me.id, started.intent_id).await;
    assert!(
        matches!(confirm, Err(CreditsError::PaymentNotSuccessful(ref m)) if m == "Your card was declined.")
    );
    assert_eq!(balance_of(&mut db.conn(), me.id), 3);
    assert!(outbox.sent().is_empty(), "no receipt for a payment that failed");
}
