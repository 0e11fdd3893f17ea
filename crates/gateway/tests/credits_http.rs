//! Credits over real HTTP on both databases: packs, rewarded ads with the server clock,
//! test-mode and Stripe purchases (against a local stand-in speaking Stripe's REST shapes,
//! through the production client), and the verified webhook. After every scenario the
//! balance equals the sum of the ledger.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use chrono::Duration;
use reqwest::StatusCode;
use serde_json::json;
use setupiq_core::Clock;
use setupiq_test_utils::{StripeStandIn, TestApp, TestClient, TestDb, both_backends_async};

const WEBHOOK_SECRET: &str = "whsec_test_secret";

async fn balance(client: &TestClient) -> i64 {
    client.get("/_api/auth/session").await.json()["user"]["credits"].as_i64().unwrap()
}

async fn stripe_app(db: setupiq_test_utils::TestDb, stripe: &StripeStandIn) -> TestApp {
    let base = stripe.url();
    TestApp::start_with(
        db,
        &[
            ("STRIPE_SECRET_KEY", StripeStandIn::SECRET_KEY),
            ("STRIPE_PUBLISHABLE_KEY", "pk_test_standin"),
            ("STRIPE_WEBHOOK_SECRET", WEBHOOK_SECRET),
            ("SETUPIQ_STRIPE_API_BASE", &base),
        ],
    )
    .await
}

both_backends_async!(
    a_deduction_reason_cannot_pass_for_a_system_line,
    packs_come_from_the_server,
    signed_out_visitors_get_401,
    three_ads_earn_a_credit_on_the_server_clock,
    the_daily_limit_error_says_so,
    deductions_are_validated_and_bounded,
    a_test_mode_purchase_works_offline,
    the_receipt_names_the_operator_and_the_support_address,
    stripe_purchases_are_credited_once_by_confirm_and_webhook,
    a_retried_purchase_gets_the_same_intent_until_one_is_credited,
    eight_simultaneous_confirmations_credit_once,
    forged_or_stale_webhooks_credit_nothing,
);

async fn packs_come_from_the_server(db: TestDb) {
    let app = TestApp::start(db).await;
    let packs = app.client().get("/_api/credits/packs").await.json();
    assert_eq!(packs["testMode"], true);
    assert_eq!(packs["publishableKey"], serde_json::Value::Null);
    let listed: Vec<_> = packs["packs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["id"].as_str().unwrap().to_owned(),
                p["credits"].as_i64().unwrap(),
                p["priceCents"].as_i64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        listed,
        vec![("starter".into(), 10, 499), ("popular".into(), 25, 999), ("value".into(), 100, 1999)]
    );
}

async fn signed_out_visitors_get_401(db: TestDb) {
    let app = TestApp::start(db).await;
    let client = app.client();
    for (path, body) in [
        ("/_api/watch-ad/start", json!({})),
        ("/_api/watch-ad", json!({"adToken": "x"})),
        ("/_api/stripe/create-payment-intent", json!({"packageId": "starter"})),
        ("/_api/stripe/confirm-payment", json!({"paymentIntentId": "pi_x"})),
        ("/_api/credits/deduct", json!({"amount": 1, "reason": "x"})),
    ] {
        assert_eq!(client.post(path, body).await.status, StatusCode::UNAUTHORIZED, "{path}");
    }
    assert_eq!(client.get("/_api/credits/ad-stats").await.status, StatusCode::UNAUTHORIZED);
    assert_eq!(client.get("/_api/credits/history").await.status, StatusCode::UNAUTHORIZED);
}

async fn three_ads_earn_a_credit_on_the_server_clock(db: TestDb) {
    let app = TestApp::start(db).await;
    let me = app.user("ads@example.com").sign_up().await;
    let mut last = serde_json::Value::Null;
    for watched in 1..=3 {
        let token =
            me.post("/_api/watch-ad/start", json!({})).await.json()["adToken"].as_str().unwrap().to_owned();
        let early = me.post("/_api/watch-ad", json!({"adToken": token})).await;
        assert_eq!(early.status, StatusCode::BAD_REQUEST, "not before 3 s");
        app.clock.advance(Duration::seconds(3));
        last = me.post("/_api/watch-ad", json!({"adToken": token})).await.json();
        assert_eq!(last["adsWatchedInSession"], watched % 3, "{last}");
        let again = me.post("/_api/watch-ad", json!({"adToken": token})).await;
        assert_eq!(again.status, StatusCode::CONFLICT, "each token counts once");
    }
    assert_eq!(
        last,
        json!({"creditAwarded": true, "credits": 4, "adsUntilNextCredit": 3, "adsWatchedInSession": 0})
    );
    assert_eq!(balance(&me).await, 4);
    let stats = me.get("/_api/credits/ad-stats").await.json();
    assert_eq!(
        stats,
        json!({"dailyAdsRemaining": 27, "potentialCreditsToday": 9, "uncreditedAds": 0, "adsUntilNextCredit": 3})
    );
    let history = me.get("/_api/credits/history").await.json();
    assert_eq!(history["entries"][0]["reason"], "ad_reward");
    app.assert_ledger_consistent(me.id);
}

async fn the_daily_limit_error_says_so(db: TestDb) {
    let app = TestApp::start(db).await;
    let me = app.user("limit@example.com").sign_up().await;
    for _ in 0..30 {
        let token =
            me.post("/_api/watch-ad/start", json!({})).await.json()["adToken"].as_str().unwrap().to_owned();
        app.clock.advance(Duration::seconds(3));
        assert_eq!(me.post("/_api/watch-ad", json!({"adToken": token})).await.status, StatusCode::OK);
    }
    let refused = me.post("/_api/watch-ad/start", json!({})).await;
    assert_eq!(refused.status, StatusCode::TOO_MANY_REQUESTS);
    assert!(refused.error().contains("Daily ad watch limit reached"), "{}", refused.text);
    assert_eq!(balance(&me).await, 13);
    app.assert_ledger_consistent(me.id);
}

async fn deductions_are_validated_and_bounded(db: TestDb) {
    let app = TestApp::start(db).await;
    let me = app.user("deduct@example.com").sign_up().await;
    for (body, message) in [
        (json!({"amount": 0, "reason": "x"}), "Amount must be a positive integer."),
        (json!({"amount": 1, "reason": ""}), "Reason is required."),
        (json!({"amount": 1, "reason": "r".repeat(501)}), "Reason cannot exceed 500 characters."),
    ] {
        let res = me.post("/_api/credits/deduct", body).await;
        assert_eq!((res.status, res.error().as_str()), (StatusCode::BAD_REQUEST, message));
    }
    let too_much = me.post("/_api/credits/deduct", json!({"amount": 4, "reason": "publish"})).await;
    assert_eq!(too_much.status, StatusCode::PAYMENT_REQUIRED);
    assert!(too_much.error().contains("credits"));
    let ok = me.post("/_api/credits/deduct", json!({"amount": 2, "reason": "publish"})).await;
    assert_eq!(ok.json(), json!({"success": true, "credits": 1}));
    app.assert_ledger_consistent(me.id);
}

async fn the_receipt_names_the_operator_and_the_support_address(db: TestDb) {
    let app = TestApp::start_with(
        db,
        &[
            ("SETUPIQ_LEGAL_OPERATOR", "Rig Labs GmbH"),
            ("SETUPIQ_LEGAL_ADDRESS", "Hauptstr. 1; 10115 Berlin"),
            ("SETUPIQ_SUPPORT_EMAIL", "help@riglabs.example"),
        ],
    )
    .await;
    let me = app.user("buyer@example.com").sign_up().await;
    let intent = me.post("/_api/stripe/create-payment-intent", json!({"packageId": "starter"})).await.json();
    let intent_id = intent["paymentIntentId"].as_str().unwrap().to_owned();
    let card = json!({"paymentIntentId": intent_id, "cardNumber": "4242 4242 4242 4242"});
    assert_eq!(me.post("/_api/stripe/test-mode/pay", card).await.status, StatusCode::OK);
    let done = me.post("/_api/stripe/confirm-payment", json!({"paymentIntentId": intent_id})).await;
    assert_eq!(done.status, StatusCode::OK, "{}", done.text);

    let receipt = app.outbox().into_iter().find(|m| m.subject.starts_with("Your SetupIQ receipt")).unwrap();
    assert!(
        receipt.text.contains("Sold by: Rig Labs GmbH, Hauptstr. 1, 10115 Berlin\r\n"),
        "{}",
        receipt.text
    );
    assert!(
        receipt.text.contains("Questions about this payment: help@riglabs.example\r\n"),
        "{}",
        receipt.text
    );
}

async fn a_test_mode_purchase_works_offline(db: TestDb) {
    let app = TestApp::start(db).await;
    let me = app.user("offline@example.com").sign_up().await;
    let intent = me.post("/_api/stripe/create-payment-intent", json!({"packageId": "starter"})).await.json();
    assert_eq!(intent["testMode"], true);
    let intent_id = intent["paymentIntentId"].as_str().unwrap().to_owned();
    let unknown = me.post("/_api/stripe/create-payment-intent", json!({"packageId": "mega"})).await;
    assert_eq!(
        (unknown.status, unknown.error().as_str()),
        (StatusCode::BAD_REQUEST, "Please select a valid credit package.")
    );

    let declined = me
        .post(
            "/_api/stripe/test-mode/pay",
            json!({"paymentIntentId": intent_id, "cardNumber": "4000 0000 0000 0002"}),
        )
        .await;
    assert_eq!(
        (declined.status, declined.error().as_str()),
        (StatusCode::PAYMENT_REQUIRED, "Your card was declined.")
    );
    let not_paid = me.post("/_api/stripe/confirm-payment", json!({"paymentIntentId": intent_id})).await;
    assert_eq!(not_paid.status, StatusCode::PAYMENT_REQUIRED);
    assert_eq!(balance(&me).await, 3);

    let paid = me
        .post(
            "/_api/stripe/test-mode/pay",
            json!({"paymentIntentId": intent_id, "cardNumber": "4242 4242 4242 4242"}),
        )
        .await;
    assert_eq!(paid.status, StatusCode::OK);
    let thief = app.user("thief@example.com").sign_up().await;
    let stolen = thief.post("/_api/stripe/confirm-payment", json!({"paymentIntentId": intent_id})).await;
    assert_eq!(stolen.status, StatusCode::NOT_FOUND, "another user's intent is not theirs to credit");
    let done = me.post("/_api/stripe/confirm-payment", json!({"paymentIntentId": intent_id})).await;
    assert_eq!(done.json(), json!({"creditsAdded": 10, "newBalance": 13}));
    let again = me.post("/_api/stripe/confirm-payment", json!({"paymentIntentId": intent_id})).await;
    assert_eq!(
        again.json(),
        json!({"creditsAdded": 0, "newBalance": 13}),
        "a replay adds nothing and says so"
    );
    assert_eq!(balance(&me).await, 13);
    app.assert_ledger_consistent(me.id);

    // The receipt: e-mailed once, listed, and printable by its owner only.
    let receipts: Vec<_> =
        app.outbox().into_iter().filter(|m| m.subject.starts_with("Your SetupIQ receipt")).collect();
    assert_eq!(receipts.len(), 1, "one receipt for one purchase");
    assert_eq!(receipts[0].to, "offline@example.com");
    assert!(receipts[0].text.contains(&format!("/receipts/{intent_id}")), "{}", receipts[0].text);
    assert!(
        receipts[0].text.contains("Sold by: SetupIQ\r\n")
            && receipts[0].text.contains("Questions about this payment: support@setupiq.local\r\n"),
        "no operator configured: {}",
        receipts[0].text
    );
    let listed = me.get("/_api/credits/payments").await.json();
    let payment = &listed["payments"][0];
    assert_eq!(
        (payment["reference"].as_str(), payment["description"].as_str(), payment["amountCents"].as_i64()),
        (Some(intent_id.as_str()), Some("Starter Pack (10 credits)"), Some(499))
    );
    assert!(payment["paidAt"].is_string() && payment.get("clientSecret").is_none(), "{payment}");
    let printable = me.get(&format!("/_api/credits/payments/{intent_id}")).await;
    assert_eq!(
        (printable.status, printable.json()["reference"].as_str()),
        (StatusCode::OK, Some(intent_id.as_str()))
    );
    let theirs = thief.get(&format!("/_api/credits/payments/{intent_id}")).await;
    assert_eq!(theirs.status, StatusCode::NOT_FOUND, "a receipt is its payer's alone");
    assert_eq!(app.client().get("/_api/credits/payments").await.status, StatusCode::UNAUTHORIZED);
    let unpaid = me.post("/_api/stripe/create-payment-intent", json!({"packageId": "value"})).await.json();
    let unpaid_id = unpaid["paymentIntentId"].as_str().unwrap();
    assert_eq!(
        me.get(&format!("/_api/credits/payments/{unpaid_id}")).await.status,
        StatusCode::NOT_FOUND,
        "no receipt before it is paid"
    );
}

async fn stripe_purchases_are_credited_once_by_confirm_and_webhook(db: TestDb) {
    let stripe = StripeStandIn::start().await;
    let app = stripe_app(db, &stripe).await;
    let me = app.user("stripe@example.com").sign_up().await;
    let packs = me.get("/_api/credits/packs").await.json();
    assert_eq!(
        (packs["testMode"].as_bool(), packs["publishableKey"].as_str()),
        (Some(false), Some("pk_test_standin"))
    );
    let intent = me.post("/_api/stripe/create-payment-intent", json!({"packageId": "popular"})).await.json();
    assert_eq!(intent["testMode"], false);
    let intent_id = intent["paymentIntentId"].as_str().unwrap().to_owned();
    assert!(intent["clientSecret"].as_str().unwrap().starts_with(&intent_id));
    assert!(stripe.last_idempotency_key().is_some(), "every create carries an Idempotency-Key");
    let params = stripe.last_create_params();
    assert_eq!(
        (params.get("amount").map(String::as_str), params.get("currency").map(String::as_str)),
        (Some("999"), Some("usd"))
    );
    let test_mode = me
        .post(
            "/_api/stripe/test-mode/pay",
            json!({"paymentIntentId": intent_id, "cardNumber": "4242424242424242"}),
        )
        .await;
    assert_eq!(test_mode.status, StatusCode::NOT_FOUND, "no test mode with a Stripe key");

    let unpaid = me.post("/_api/stripe/confirm-payment", json!({"paymentIntentId": intent_id})).await;
    assert_eq!(unpaid.status, StatusCode::PAYMENT_REQUIRED);
    stripe.succeed(&intent_id);

    // The webhook and the browser's confirmation race; the purchase is credited once.
    let (body, signature) = stripe.webhook_event(&intent_id, WEBHOOK_SECRET, app.clock.now().timestamp());
    let hook = app.client();
    let webhook = hook.stripe_webhook(body.clone(), Some(signature.clone()));
    let confirm = me.post("/_api/stripe/confirm-payment", json!({"paymentIntentId": intent_id}));
    let (webhook, confirm) = futures_util::join!(webhook, confirm);
    assert_eq!(webhook.status, StatusCode::OK, "{}", webhook.text);
    assert_eq!(confirm.json(), json!({"creditsAdded": 25, "newBalance": 28}));
    let redelivered = hook.stripe_webhook(body, Some(signature)).await;
    assert_eq!(redelivered.status, StatusCode::OK);
    assert_eq!(balance(&me).await, 28);
    app.assert_ledger_consistent(me.id);
    let receipts: Vec<_> =
        app.outbox().into_iter().filter(|m| m.subject.starts_with("Your SetupIQ receipt")).collect();
    assert_eq!(
        receipts.len(),
        1,
        "one receipt, from whichever of the webhook and the confirmation credited it"
    );
    assert_eq!(receipts[0].subject, "Your SetupIQ receipt: Popular Pack (25 credits)");
    assert!(
        receipts[0].text.contains("Amount paid: $9.99") && !receipts[0].text.contains("test mode"),
        "{}",
        receipts[0].text
    );
}

async fn a_retried_purchase_gets_the_same_intent_until_one_is_credited(db: TestDb) {
    let stripe = StripeStandIn::start().await;
    let app = stripe_app(db, &stripe).await;
    let me = app.user("retry@example.com").sign_up().await;
    let buy = |pack: &'static str| me.post("/_api/stripe/create-payment-intent", json!({"packageId": pack}));
    let first = buy("starter").await.json();
    let again = buy("starter").await.json();
    assert_eq!(
        again["paymentIntentId"], first["paymentIntentId"],
        "a double click does not make a second intent"
    );
    assert_eq!(again["clientSecret"], first["clientSecret"]);
    assert_eq!(stripe.created_count(), 1);
    let other_pack = buy("popular").await.json();
    assert_ne!(other_pack["paymentIntentId"], first["paymentIntentId"]);

    let intent_id = first["paymentIntentId"].as_str().unwrap().to_owned();
    stripe.succeed(&intent_id);
    let done = me.post("/_api/stripe/confirm-payment", json!({"paymentIntentId": intent_id})).await;
    assert_eq!(done.json(), json!({"creditsAdded": 10, "newBalance": 13}));
    let next = buy("starter").await.json();
    assert_ne!(
        next["paymentIntentId"], first["paymentIntentId"],
        "after a credited purchase the next one is new"
    );
    assert_eq!(stripe.created_count(), 3);
    app.assert_ledger_consistent(me.id);
}

async fn eight_simultaneous_confirmations_credit_once(db: TestDb) {
    let stripe = StripeStandIn::start().await;
    let app = stripe_app(db, &stripe).await;
    let me = app.user("eight@example.com").sign_up().await;
    let created = me.post("/_api/stripe/create-payment-intent", json!({"packageId": "value"})).await;
    let intent_id = created.json()["paymentIntentId"].as_str().expect(&created.text).to_owned();
    stripe.succeed(&intent_id);
    let confirms: Vec<_> = (0..8)
        .map(|_| me.post("/_api/stripe/confirm-payment", json!({"paymentIntentId": intent_id})))
        .collect();
    let mut added: Vec<i64> = Vec::new();
    for response in futures_util::future::join_all(confirms).await {
        assert_eq!(response.json()["newBalance"], 103, "{}", response.text);
        added.push(response.json()["creditsAdded"].as_i64().unwrap());
    }
    added.sort_unstable();
    assert_eq!(
        added,
        [0, 0, 0, 0, 0, 0, 0, 100],
        "the first confirmation reports the credits, the others none"
    );
    assert_eq!(balance(&me).await, 103);
    app.assert_ledger_consistent(me.id);
}

async fn forged_or_stale_webhooks_credit_nothing(db: TestDb) {
    let stripe = StripeStandIn::start().await;
    let app = stripe_app(db, &stripe).await;
    let me = app.user("forged@example.com").sign_up().await;
    let intent_id = me.post("/_api/stripe/create-payment-intent", json!({"packageId": "value"})).await.json()
        ["paymentIntentId"]
        .as_str()
        .unwrap()
        .to_owned();
    stripe.succeed(&intent_id);
    let now = app.clock.now().timestamp();
    let hook = app.client();
    let send = |body: String, signature: Option<String>| hook.stripe_webhook(body, signature);
    let (body, signature) = stripe.webhook_event(&intent_id, WEBHOOK_SECRET, now);
    let mut flipped = body.clone().into_bytes();
    let last = flipped.len() - 2;
    flipped[last] ^= 0x01;
    let reserialised =
        serde_json::to_string_pretty(&serde_json::from_str::<serde_json::Value>(&body).unwrap()).unwrap();
    let (stale_body, stale_signature) = stripe.webhook_event(&intent_id, WEBHOOK_SECRET, now - 301);
    for (what, body, signature) in [
        ("flipped byte", String::from_utf8_lossy(&flipped).into_owned(), Some(signature.clone())),
        ("re-serialised body", reserialised, Some(signature.clone())),
        ("stale timestamp", stale_body, Some(stale_signature)),
        ("missing header", body.clone(), None),
        ("wrong secret", body.clone(), Some(stripe.webhook_event(&intent_id, "whsec_other", now).1)),
    ] {
        let res = send(body, signature).await;
        assert_eq!(res.status, StatusCode::BAD_REQUEST, "{what}: {}", res.text);
    }
    assert_eq!(balance(&me).await, 3, "nothing credited");
    let res = send(body, Some(signature)).await;
    assert_eq!(res.status, StatusCode::OK);
    assert_eq!(balance(&me).await, 103);
    app.assert_ledger_consistent(me.id);
}

async fn a_deduction_reason_cannot_pass_for_a_system_line(db: TestDb) {
    let app = TestApp::start(db).await;
    let me = app.user("imitator@example.com").sign_up().await;
    for reason in ["signup_bonus", "purchase:value"] {
        let res = me.post("/_api/credits/deduct", json!({"amount": 1, "reason": reason})).await;
        assert_eq!(res.status, StatusCode::OK, "{}", res.text);
    }
    let history = me.get("/_api/credits/history").await.json();
    let reasons: Vec<&str> =
        history["entries"].as_array().unwrap().iter().map(|e| e["reason"].as_str().unwrap()).collect();
    assert_eq!(&reasons[..3], ["spend:purchase:value", "spend:signup_bonus", "signup_bonus"], "newest first");
    app.assert_ledger_consistent(me.id);
}
