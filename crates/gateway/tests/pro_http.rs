//! Pro by subscription over real HTTP, on both databases.
//! - In the test mode: the plans, a subscription paid with the test card and confirmed as a
//!   pack is, cancel and resume, and the end of Pro when the paid period is over (the
//!   injected clock moves it).
//! - With Stripe Billing (the stand-in on a loopback port, the production client): the
//!   customer and the incomplete subscription, its first invoice confirmed, renewals, a
//!   failed renewal and the end told by signed webhooks (redelivered, out of order), and the
//!   subscription ended with the account.
//! - One subscription per member: a checkout for another plan replaces the unpaid one (voided
//!   at Stripe too), twenty checkouts opened at once leave one to pay, a payment for a
//!   replaced checkout or by a member already Pro is refused before it is made (test mode)
//!   or refunded when Stripe still takes it.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use chrono::Duration;
use futures_util::future::join_all;
use reqwest::StatusCode;
use serde_json::json;
use setupiq_core::Clock;
use setupiq_test_utils::{StripeStandIn, TestApp, TestDb, both_backends_async};

both_backends_async!(
    pro_is_bought_kept_until_the_period_ends_and_left,
    subscribing_is_validated_and_needs_a_session,
    pro_is_sold_and_kept_by_stripe_billing,
    deleting_the_account_ends_its_stripe_subscription,
    a_member_holds_one_subscription_in_test_mode,
    a_member_holds_one_stripe_subscription,
);

const ALREADY_PRO: &str = "You are already a Pro member. To change plans, cancel your subscription and choose the other plan once your paid period ends.";
const REPLACED: &str = "This checkout was replaced by a newer one. Please pay in the newest window.";

const WEBHOOK_SECRET: &str = "whsec_test_pro";

async fn stripe_app(db: TestDb, stripe: &StripeStandIn) -> TestApp {
    let base = stripe.url();
    let env = [
        ("STRIPE_SECRET_KEY", StripeStandIn::SECRET_KEY),
        ("STRIPE_PUBLISHABLE_KEY", "pk_test_standin"),
        ("STRIPE_WEBHOOK_SECRET", WEBHOOK_SECRET),
        ("SETUPIQ_STRIPE_API_BASE", base.as_str()),
        ("STRIPE_PRO_PRODUCT", "prod_setupiq_pro"),
    ];
    TestApp::start_with(db, &env).await
}

/// Stripe sends `event_type` about `object`, signed, at the server's time.
async fn webhook(app: &TestApp, event_type: &str, object: serde_json::Value) -> (StatusCode, String) {
    let (body, signature) =
        StripeStandIn::object_event(event_type, object, WEBHOOK_SECRET, app.clock.now().timestamp());
    let answer = app.client().stripe_webhook(body, Some(signature)).await;
    (answer.status, answer.text)
}

fn mails_titled(app: &TestApp, subject: &str) -> usize {
    app.outbox().iter().filter(|m| m.subject == subject).count()
}

async fn pro_is_bought_kept_until_the_period_ends_and_left(db: TestDb) {
    let app = TestApp::start_with(db, &[("SETUPIQ_PRO_MONTHLY_CENTS", "599")]).await;
    let visitor = app.client().get("/_api/pro").await.json();
    assert_eq!(
        visitor["plans"][0],
        json!({"plan": "monthly", "name": "SetupIQ Pro, monthly", "priceCents": 599, "currency": "usd", "interval": "month"})
    );
    assert_eq!(
        (visitor["plans"][1]["priceCents"].as_i64(), visitor["isPro"].as_bool()),
        (Some(3999), Some(false))
    );
    assert!(visitor["subscription"].is_null());

    let me = app.user("subscriber@example.com").sign_up().await;
    let started = me.post("/_api/pro/subscribe", json!({"plan": "yearly"})).await;
    assert_eq!(started.status, StatusCode::OK, "{}", started.text);
    let intent_id = started.json()["paymentIntentId"].as_str().unwrap().to_owned();
    assert_eq!(started.json()["testMode"], true);
    let paid = me
        .post(
            "/_api/stripe/test-mode/pay",
            json!({"paymentIntentId": intent_id, "cardNumber": "4242 4242 4242 4242"}),
        )
        .await;
    assert_eq!(paid.status, StatusCode::OK, "{}", paid.text);
    let confirmed = me.post("/_api/stripe/confirm-payment", json!({"paymentIntentId": intent_id})).await;
    assert_eq!(confirmed.status, StatusCode::OK, "{}", confirmed.text);
    let until = confirmed.json()["proUntil"].as_str().unwrap().to_owned();
    assert!(until.starts_with("2027-03-14"), "a year from the test epoch: {until}");
    assert_eq!(confirmed.json()["creditsAdded"], 0);

    let session = me.get("/_api/auth/session").await.json();
    assert_eq!(
        (session["user"]["isPro"].as_bool(), session["user"]["credits"].as_i64()),
        (Some(true), Some(3))
    );
    let again = me.post("/_api/pro/subscribe", json!({"plan": "monthly"})).await;
    assert_eq!((again.status, again.error().as_str()), (StatusCode::CONFLICT, ALREADY_PRO));
    let state = me.get("/_api/pro").await.json();
    assert_eq!(state["subscription"]["status"], "active");
    assert_eq!(state["subscription"]["currentPeriodEnd"], until.as_str());
    let receipt =
        app.outbox().into_iter().find(|m| m.subject == "Your SetupIQ receipt: SetupIQ Pro, yearly").unwrap();
    assert!(receipt.text.contains("Amount paid: $39.99"), "{}", receipt.text);

    // Cancelled: still Pro until the period ends; resumed; cancelled again.
    let cancelled = me.post("/_api/pro/cancel", json!({})).await;
    assert_eq!(cancelled.json()["subscription"]["cancelAtPeriodEnd"], true, "{}", cancelled.text);
    assert_eq!(
        me.post("/_api/pro/resume", json!({})).await.json()["subscription"]["cancelAtPeriodEnd"],
        false
    );
    me.post("/_api/pro/cancel", json!({})).await;
    // A year on, every session has ended: the member signs in again.
    app.clock.advance(Duration::days(364));
    assert_eq!(me.login("subscriber@example.com", &me.password).await.status, StatusCode::OK);
    let still = me.get("/_api/pro").await.json();
    assert_eq!(
        (still["isPro"].as_bool(), still["subscription"]["status"].as_str()),
        (Some(true), Some("active"))
    );
    app.clock.advance(Duration::days(2));
    assert_eq!(me.login("subscriber@example.com", &me.password).await.status, StatusCode::OK);
    let over = me.get("/_api/pro").await.json();
    assert_eq!(
        (over["isPro"].as_bool(), over["subscription"]["status"].as_str()),
        (Some(false), Some("canceled"))
    );
    assert_eq!(me.get("/_api/auth/session").await.json()["user"]["isPro"], false);
    assert_eq!(me.post("/_api/pro/cancel", json!({})).await.status, StatusCode::NOT_FOUND);
    let payments = me.get("/_api/credits/payments").await.json();
    assert_eq!(payments["payments"].as_array().unwrap().len(), 1, "nothing charged after the cancel");
    assert!(app.clock.now() > chrono::DateTime::parse_from_rfc3339(&until).unwrap());
}

async fn subscribing_is_validated_and_needs_a_session(db: TestDb) {
    let app = TestApp::start(db).await;
    assert_eq!(
        app.client().post("/_api/pro/subscribe", json!({"plan": "monthly"})).await.status,
        StatusCode::UNAUTHORIZED
    );
    let me = app.user("picky@example.com").sign_up().await;
    let weekly = me.post("/_api/pro/subscribe", json!({"plan": "weekly"})).await;
    assert_eq!(weekly.status, StatusCode::BAD_REQUEST, "{}", weekly.text);
    assert_eq!(me.post("/_api/pro/resume", json!({})).await.status, StatusCode::NOT_FOUND);
    // Asked twice before paying: one payment, answered twice.
    let first = me.post("/_api/pro/subscribe", json!({"plan": "monthly"})).await.json();
    let second = me.post("/_api/pro/subscribe", json!({"plan": "monthly"})).await.json();
    assert_eq!(first["paymentIntentId"], second["paymentIntentId"]);
    let declined = me
        .post(
            "/_api/stripe/test-mode/pay",
            json!({"paymentIntentId": first["paymentIntentId"], "cardNumber": "4000 0000 0000 0002"}),
        )
        .await;
    assert_eq!(declined.status, StatusCode::PAYMENT_REQUIRED);
    let unpaid =
        me.post("/_api/stripe/confirm-payment", json!({"paymentIntentId": first["paymentIntentId"]})).await;
    assert_eq!(unpaid.status, StatusCode::PAYMENT_REQUIRED);
    assert_eq!(me.get("/_api/pro").await.json()["isPro"], false);
}

async fn pro_is_sold_and_kept_by_stripe_billing(db: TestDb) {
    let stripe = StripeStandIn::start().await;
    let app = stripe_app(db, &stripe).await;
    let me = app.user("billing@example.com").sign_up().await;
    assert_eq!(me.get("/_api/pro").await.json()["testMode"], false);

    // Subscribing opens a subscription at Stripe whose first invoice waits for the card form;
    // asked again before paying, Stripe replays the same one (the same Idempotency-Key).
    let started = me.post("/_api/pro/subscribe", json!({"plan": "monthly"})).await;
    assert_eq!(started.status, StatusCode::OK, "{}", started.text);
    let started = started.json();
    let invoice_id = started["paymentIntentId"].as_str().unwrap().to_owned();
    let subscription_id = started["subscriptionId"].as_str().unwrap().to_owned();
    assert!(invoice_id.starts_with("in_") && subscription_id.starts_with("sub_"), "{started}");
    assert!(started["clientSecret"].as_str().unwrap().contains("_secret_"), "{started}");
    assert_eq!(started["testMode"], false);
    let again = me.post("/_api/pro/subscribe", json!({"plan": "monthly"})).await.json();
    assert_eq!(
        (again["subscriptionId"].clone(), again["paymentIntentId"].clone()),
        (json!(subscription_id), json!(invoice_id))
    );
    assert_eq!((stripe.customer_count(), stripe.subscription_count()), (1, 1));
    let key = stripe.last_idempotency_key().unwrap_or_default();
    assert!(key.starts_with("setupiq-subscribe-cus_"), "the create carried our key: {key}");
    let subscription = stripe.subscription(&subscription_id).unwrap();
    assert_eq!(subscription["items"]["data"][0]["price"]["unit_amount"], 499);
    assert_eq!(subscription["items"]["data"][0]["price"]["product"], "prod_setupiq_pro");
    assert_eq!(subscription["metadata"]["plan"], "monthly");
    assert_eq!(subscription["payment_settings"]["save_default_payment_method"], "on_subscription");

    // Not paid yet: no Pro. Paid in Elements: confirmed as a pack is, Pro until Stripe's
    // period end.
    let unpaid = me.post("/_api/stripe/confirm-payment", json!({"paymentIntentId": invoice_id})).await;
    assert_eq!(unpaid.status, StatusCode::PAYMENT_REQUIRED, "{}", unpaid.text);
    let now = app.clock.now().timestamp();
    stripe.pay_invoice(&invoice_id, now);
    let confirmed = me.post("/_api/stripe/confirm-payment", json!({"paymentIntentId": invoice_id})).await;
    assert_eq!(confirmed.status, StatusCode::OK, "{}", confirmed.text);
    let period_end = stripe.subscription(&subscription_id).unwrap()["items"]["data"][0]["current_period_end"]
        .as_i64()
        .unwrap();
    let until = chrono::DateTime::from_timestamp(period_end, 0).unwrap();
    assert_eq!(confirmed.json()["proUntil"], json!(until.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)));
    assert!(until.to_rfc3339().starts_with("2026-04-14"), "a month from the test epoch: {until}");
    assert_eq!(me.get("/_api/auth/session").await.json()["user"]["isPro"], true);
    // Stripe's invoice.paid for the same invoice credits nothing twice.
    let paid_event = stripe.invoice(&invoice_id).unwrap();
    assert_eq!(webhook(&app, "invoice.paid", paid_event).await.0, StatusCode::OK);
    assert_eq!(mails_titled(&app, "Your SetupIQ receipt: SetupIQ Pro, monthly"), 1);

    // Cancel and resume go to Stripe, and its answer is kept.
    let cancelled = me.post("/_api/pro/cancel", json!({})).await;
    assert_eq!(cancelled.json()["subscription"]["cancelAtPeriodEnd"], true, "{}", cancelled.text);
    assert_eq!(stripe.subscription(&subscription_id).unwrap()["cancel_at_period_end"], true);
    let resumed = me.post("/_api/pro/resume", json!({})).await.json();
    assert_eq!(resumed["subscription"]["cancelAtPeriodEnd"], false);
    assert_eq!(stripe.subscription(&subscription_id).unwrap()["cancel_at_period_end"], false);

    // A renewal Stripe charged on its own: a second payment, a receipt, the next period.
    // An old "incomplete" snapshot delivered late changes nothing: Stripe's state is read.
    let stale_snapshot = json!({"id": subscription_id, "object": "subscription", "status": "incomplete"});
    app.clock.advance(Duration::days(31));
    assert_eq!(me.login("billing@example.com", &me.password).await.status, StatusCode::OK);
    let renewal = stripe.renew(&subscription_id);
    assert_eq!(webhook(&app, "invoice.paid", stripe.invoice(&renewal).unwrap()).await.0, StatusCode::OK);
    assert_eq!(webhook(&app, "customer.subscription.updated", stale_snapshot).await.0, StatusCode::OK);
    let renewed = me.get("/_api/pro").await.json();
    assert_eq!(renewed["subscription"]["status"], "active", "{renewed}");
    assert!(
        renewed["subscription"]["currentPeriodEnd"].as_str().unwrap().starts_with("2026-05-14"),
        "{renewed}"
    );
    assert_eq!(me.get("/_api/credits/payments").await.json()["payments"].as_array().unwrap().len(), 2);
    assert_eq!(mails_titled(&app, "Your SetupIQ receipt: SetupIQ Pro, monthly"), 2);

    // A failed renewal: Pro stays while Stripe retries, and one e-mail says so (the event
    // delivered twice mails once).
    app.clock.advance(Duration::days(30));
    assert_eq!(me.login("billing@example.com", &me.password).await.status, StatusCode::OK);
    let failed = stripe.fail_renewal(&subscription_id);
    let (body, signature) = StripeStandIn::object_event(
        "invoice.payment_failed",
        stripe.invoice(&failed).unwrap(),
        WEBHOOK_SECRET,
        app.clock.now().timestamp(),
    );
    for _ in 0..2 {
        let answer = app.client().stripe_webhook(body.clone(), Some(signature.clone())).await;
        assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    }
    let past_due = me.get("/_api/pro").await.json();
    assert_eq!(
        (past_due["isPro"].as_bool(), past_due["subscription"]["status"].as_str()),
        (Some(true), Some("past_due"))
    );
    assert_eq!(mails_titled(&app, "We could not renew your SetupIQ Pro"), 1);
    let notice =
        app.outbox().into_iter().find(|m| m.subject == "We could not renew your SetupIQ Pro").unwrap();
    assert_eq!(notice.to, "billing@example.com");
    assert!(notice.text.contains("You stay Pro while we try your card again"), "{}", notice.text);

    // Stripe's retries ran out: the subscription ends, and Pro with it.
    stripe.end_subscription(&subscription_id);
    let ended = stripe.subscription(&subscription_id).unwrap();
    assert_eq!(webhook(&app, "customer.subscription.deleted", ended).await.0, StatusCode::OK);
    let over = me.get("/_api/pro").await.json();
    assert_eq!(
        (over["isPro"].as_bool(), over["subscription"]["status"].as_str()),
        (Some(false), Some("canceled"))
    );
    assert_eq!(me.get("/_api/auth/session").await.json()["user"]["isPro"], false);

    // A new subscription reuses the member's Stripe customer.
    let restarted = me.post("/_api/pro/subscribe", json!({"plan": "yearly"})).await;
    assert_eq!(restarted.status, StatusCode::OK, "{}", restarted.text);
    assert_eq!((stripe.customer_count(), stripe.subscription_count()), (1, 2));
}

async fn deleting_the_account_ends_its_stripe_subscription(db: TestDb) {
    let stripe = StripeStandIn::start().await;
    let app = stripe_app(db, &stripe).await;
    let me = app.user("leaving@example.com").sign_up().await;
    let started = me.post("/_api/pro/subscribe", json!({"plan": "yearly"})).await.json();
    let (invoice_id, subscription_id) =
        (started["paymentIntentId"].as_str().unwrap(), started["subscriptionId"].as_str().unwrap());
    stripe.pay_invoice(invoice_id, app.clock.now().timestamp());
    let confirmed = me.post("/_api/stripe/confirm-payment", json!({"paymentIntentId": invoice_id})).await;
    assert_eq!(confirmed.status, StatusCode::OK, "{}", confirmed.text);
    assert_eq!(stripe.subscription(subscription_id).unwrap()["status"], "active");

    // While Stripe is down the subscription cannot be ended: the account stays, nothing goes.
    stripe.set_outage(true);
    let refused = me.delete_account().await;
    assert_eq!(refused.status, StatusCode::SERVICE_UNAVAILABLE, "{}", refused.text);
    assert!(refused.error().contains("your account was not deleted"), "{}", refused.text);
    assert!(me.signed_in().await);
    // A webhook Stripe's state cannot be read for fails, and is not recorded: Stripe's
    // redelivery, once it is back, is applied.
    let (body, signature) = StripeStandIn::object_event(
        "customer.subscription.updated",
        stripe.subscription(subscription_id).unwrap(),
        WEBHOOK_SECRET,
        app.clock.now().timestamp(),
    );
    let failed = app.client().stripe_webhook(body.clone(), Some(signature.clone())).await;
    assert!(failed.status.is_server_error(), "{}: {}", failed.status, failed.text);
    stripe.set_outage(false);
    stripe.end_subscription(subscription_id);
    let redelivered = app.client().stripe_webhook(body, Some(signature)).await;
    assert_eq!(redelivered.status, StatusCode::OK, "{}", redelivered.text);
    assert_eq!(me.get("/_api/pro").await.json()["subscription"]["status"], "canceled");
    assert_eq!(me.get("/_api/auth/session").await.json()["user"]["isPro"], false);

    let deleted = me.delete_account().await;
    assert_eq!(deleted.status, StatusCode::OK, "{}", deleted.text);
    assert_eq!(stripe.subscription(subscription_id).unwrap()["status"], "canceled", "Stripe charges no one");
}

/// Pays a test-mode checkout with the test card; the answer's status and error.
async fn pay_with_test_card(member: &setupiq_test_utils::TestUser, intent_id: &str) -> (StatusCode, String) {
    let paid = member
        .post(
            "/_api/stripe/test-mode/pay",
            json!({"paymentIntentId": intent_id, "cardNumber": "4242 4242 4242 4242"}),
        )
        .await;
    let error = if paid.status == StatusCode::OK { String::new() } else { paid.error() };
    (paid.status, error)
}

/// Opens `count` checkouts at once, monthly and yearly in turn (tabs clicked together); the
/// distinct payment references of those that opened.
async fn open_checkouts_at_once(member: &setupiq_test_utils::TestUser, count: usize) -> Vec<String> {
    let plans = (0..count).map(|i| if i % 2 == 0 { "monthly" } else { "yearly" });
    let answers =
        join_all(plans.map(|plan| member.post("/_api/pro/subscribe", json!({ "plan": plan })))).await;
    let mut references: Vec<String> = answers
        .iter()
        .filter(|answer| answer.status == StatusCode::OK)
        .map(|answer| answer.json()["paymentIntentId"].as_str().unwrap().to_owned())
        .collect();
    references.sort();
    references.dedup();
    references
}

async fn a_member_holds_one_subscription_in_test_mode(db: TestDb) {
    let app = TestApp::start(db).await;

    // Two tabs: the monthly checkout, then the yearly one. The first can no longer be paid.
    let me = app.user("two-tabs@example.com").sign_up().await;
    let monthly = me.post("/_api/pro/subscribe", json!({"plan": "monthly"})).await.json();
    let yearly = me.post("/_api/pro/subscribe", json!({"plan": "yearly"})).await.json();
    let (monthly, yearly) =
        (monthly["paymentIntentId"].as_str().unwrap(), yearly["paymentIntentId"].as_str().unwrap());
    assert_eq!(pay_with_test_card(&me, monthly).await, (StatusCode::CONFLICT, REPLACED.to_owned()));
    let confirmed = me.post("/_api/stripe/confirm-payment", json!({"paymentIntentId": monthly})).await;
    assert_eq!((confirmed.status, confirmed.error()), (StatusCode::CONFLICT, REPLACED.to_owned()));
    assert_eq!(pay_with_test_card(&me, yearly).await.0, StatusCode::OK);
    let confirmed = me.post("/_api/stripe/confirm-payment", json!({"paymentIntentId": yearly})).await;
    assert_eq!(confirmed.status, StatusCode::OK, "{}", confirmed.text);
    let pro = me.get("/_api/pro").await.json();
    assert_eq!((pro["isPro"].as_bool(), pro["subscription"]["plan"].as_str()), (Some(true), Some("yearly")));
    // Another plan while Pro is refused with what to do instead.
    let change = me.post("/_api/pro/subscribe", json!({"plan": "monthly"})).await;
    assert_eq!((change.status, change.error()), (StatusCode::CONFLICT, ALREADY_PRO.to_owned()));
    let payments = me.get("/_api/credits/payments").await.json();
    let paid = payments["payments"].as_array().unwrap().iter().filter(|p| !p["paidAt"].is_null()).count();
    assert_eq!(paid, 1, "{payments}");

    // Twenty checkouts opened at once: one can be paid.
    let racer = app.user("twenty-tabs@example.com").sign_up().await;
    let opened = open_checkouts_at_once(&racer, 20).await;
    let mut paid = Vec::new();
    for reference in &opened {
        if pay_with_test_card(&racer, reference).await.0 == StatusCode::OK {
            paid.push(reference.clone());
        }
    }
    assert_eq!(paid.len(), 1, "one payable checkout of {opened:?}");
    let confirmed = racer.post("/_api/stripe/confirm-payment", json!({"paymentIntentId": paid[0]})).await;
    assert_eq!(confirmed.status, StatusCode::OK, "{}", confirmed.text);
    assert_eq!(racer.post("/_api/pro/cancel", json!({})).await.status, StatusCode::OK);
    assert_eq!(racer.get("/_api/pro").await.json()["subscription"]["cancelAtPeriodEnd"], true);

    // Paid in one tab, not confirmed yet, when the other tab opens a checkout: the payment
    // counts (with its receipt) and the new checkout is refused.
    let quick = app.user("quick@example.com").sign_up().await;
    let first = quick.post("/_api/pro/subscribe", json!({"plan": "monthly"})).await.json();
    assert_eq!(
        pay_with_test_card(&quick, first["paymentIntentId"].as_str().unwrap()).await.0,
        StatusCode::OK
    );
    let second = quick.post("/_api/pro/subscribe", json!({"plan": "yearly"})).await;
    assert_eq!((second.status, second.error()), (StatusCode::CONFLICT, ALREADY_PRO.to_owned()));
    assert_eq!(quick.get("/_api/pro").await.json()["isPro"], true);
    let receipts =
        app.outbox().into_iter().filter(|m| m.to == "quick@example.com" && m.subject.contains("receipt"));
    assert_eq!(receipts.count(), 1);
}

async fn a_member_holds_one_stripe_subscription(db: TestDb) {
    let stripe = StripeStandIn::start().await;
    let app = stripe_app(db, &stripe).await;

    // Two tabs: the monthly checkout is voided at Stripe when the yearly one opens.
    let me = app.user("stripe-tabs@example.com").sign_up().await;
    let monthly = me.post("/_api/pro/subscribe", json!({"plan": "monthly"})).await.json();
    let yearly = me.post("/_api/pro/subscribe", json!({"plan": "yearly"})).await.json();
    let (monthly_invoice, monthly_sub) =
        (monthly["paymentIntentId"].as_str().unwrap(), monthly["subscriptionId"].as_str().unwrap());
    assert_eq!(stripe.invoice(monthly_invoice).unwrap()["status"], "void");
    assert_eq!(stripe.subscription(monthly_sub).unwrap()["status"], "canceled");
    assert!(
        !stripe.pay_invoice(monthly_invoice, app.clock.now().timestamp()),
        "a void invoice cannot be paid"
    );
    let confirmed =
        me.post("/_api/stripe/confirm-payment", json!({"paymentIntentId": monthly_invoice})).await;
    assert_eq!((confirmed.status, confirmed.error()), (StatusCode::CONFLICT, REPLACED.to_owned()));
    // Back to monthly: a new checkout, not the voided one.
    let again = me.post("/_api/pro/subscribe", json!({"plan": "monthly"})).await.json();
    assert_ne!(again["subscriptionId"], monthly["subscriptionId"]);
    assert_eq!(stripe.invoice(yearly["paymentIntentId"].as_str().unwrap()).unwrap()["status"], "void");

    // Twenty checkouts opened at once leave one open at Stripe.
    let racer = app.user("stripe-twenty@example.com").sign_up().await;
    let opened = open_checkouts_at_once(&racer, 20).await;
    assert!(!opened.is_empty());
    let customer_of = |value: &serde_json::Value| value["metadata"]["user_id"].as_str().map(str::to_owned);
    let racer_id = racer.get("/_api/auth/session").await.json()["user"]["id"].to_string().replace('"', "");
    let theirs: Vec<_> = stripe
        .subscriptions()
        .into_iter()
        .filter(|s| customer_of(s).as_deref() == Some(racer_id.as_str()))
        .collect();
    let open: Vec<_> = theirs.iter().filter(|s| s["status"] == "incomplete").collect();
    assert_eq!(open.len(), 1, "one open checkout of {}", theirs.len());
    assert!(theirs.iter().all(|s| s["status"] == "incomplete" || s["status"] == "canceled"));

    // Paid in a tab opened before, and the other plan paid too: the first payment to arrive
    // makes the member Pro, the other is refunded and its subscription ended at Stripe.
    let both = app.user("paid-twice@example.com").sign_up().await;
    let first = both.post("/_api/pro/subscribe", json!({"plan": "monthly"})).await.json();
    let first_invoice = first["paymentIntentId"].as_str().unwrap().to_owned();
    assert!(stripe.pay_invoice(&first_invoice, app.clock.now().timestamp()));
    let second = both.post("/_api/pro/subscribe", json!({"plan": "yearly"})).await.json();
    let second_invoice = second["paymentIntentId"].as_str().unwrap().to_owned();
    assert!(stripe.pay_invoice(&second_invoice, app.clock.now().timestamp()));
    let confirmed =
        both.post("/_api/stripe/confirm-payment", json!({"paymentIntentId": second_invoice})).await;
    assert_eq!(confirmed.status, StatusCode::OK, "{}", confirmed.text);
    assert_eq!(
        webhook(&app, "invoice.paid", stripe.invoice(&first_invoice).unwrap()).await.0,
        StatusCode::OK
    );
    let refunds = stripe.refunds();
    assert_eq!(refunds.len(), 1, "{refunds:?}");
    assert_eq!(refunds[0]["amount"], 499);
    assert_eq!(stripe.subscription(first["subscriptionId"].as_str().unwrap()).unwrap()["status"], "canceled");
    assert_eq!(stripe.subscription(second["subscriptionId"].as_str().unwrap()).unwrap()["status"], "active");
    let late = both.post("/_api/stripe/confirm-payment", json!({"paymentIntentId": first_invoice})).await;
    assert_eq!(
        (late.status, late.error()),
        (
            StatusCode::CONFLICT,
            "This checkout was replaced by a newer one. Your payment is refunded.".to_owned()
        )
    );
    assert_eq!(stripe.refunds().len(), 1, "refunded once");
    let pro = both.get("/_api/pro").await.json();
    assert_eq!((pro["isPro"].as_bool(), pro["subscription"]["plan"].as_str()), (Some(true), Some("yearly")));
    let payments = both.get("/_api/credits/payments").await.json();
    let refunded =
        payments["payments"].as_array().unwrap().iter().find(|p| p["reference"] == first_invoice.as_str());
    assert_eq!(refunded.map(|p| p["status"].clone()), Some(json!("refunded")), "{payments}");
}
