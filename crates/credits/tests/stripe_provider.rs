//! The real [`StripeProvider`] (async-stripe's hyper client) against [`StripeStandIn`] over
//! real HTTP: what create sends, idempotent retries, and how retrieve maps what Stripe says.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use setupiq_core::UserId;
use setupiq_core::config::Secret;
use setupiq_credits::payments::stripe::StripeProvider;
use setupiq_credits::payments::{NewIntent, PaymentStatus, ProviderError};
use setupiq_test_utils::StripeStandIn;

fn provider(stripe: &StripeStandIn) -> StripeProvider {
    StripeProvider::new(&Secret::new(StripeStandIn::SECRET_KEY), Some(&stripe.url())).unwrap()
}

fn starter_pack(idempotency_key: &str) -> NewIntent<'_> {
    NewIntent {
        amount_cents: 499,
        currency: "usd",
        user_id: UserId(42),
        package_id: "starter",
        idempotency_key,
    }
}

#[actix_web::test]
async fn create_sends_amount_currency_metadata_and_the_idempotency_key() {
    let stripe = StripeStandIn::start().await;
    let created = provider(&stripe).create_intent(&starter_pack("purchase-42-1")).await.unwrap();

    assert!(created.id.starts_with("pi_"), "{created:?}");
    assert!(created.client_secret.starts_with(&format!("{}_secret_", created.id)), "{created:?}");
    assert_eq!(stripe.created_count(), 1);
    assert_eq!(stripe.last_idempotency_key().as_deref(), Some("purchase-42-1"));

    let params = stripe.last_create_params();
    let sent: Vec<(&str, &str)> = params.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    assert_eq!(
        sent,
        [
            ("amount", "499"),
            ("automatic_payment_methods[enabled]", "true"),
            ("currency", "usd"),
            ("metadata[package_id]", "starter"),
            ("metadata[user_id]", "42"),
        ]
    );

    let intent = stripe.intent(&created.id).unwrap();
    assert_eq!(intent["amount"], 499);
    assert_eq!(intent["currency"], "usd");
    assert_eq!(intent["metadata"]["user_id"], "42");
    assert_eq!(intent["metadata"]["package_id"], "starter");
    assert_eq!(intent["automatic_payment_methods"]["enabled"], true);
}

#[actix_web::test]
async fn a_repeated_idempotency_key_returns_the_same_intent() {
    let stripe = StripeStandIn::start().await;
    let provider = provider(&stripe);

    let first = provider.create_intent(&starter_pack("purchase-42-1")).await.unwrap();
    let again = provider.create_intent(&starter_pack("purchase-42-1")).await.unwrap();
    assert_eq!(again, first);
    assert_eq!(stripe.created_count(), 1);

    let other = provider.create_intent(&starter_pack("purchase-42-2")).await.unwrap();
    assert_ne!(other.id, first.id);
    assert_eq!(stripe.created_count(), 2);
    assert_eq!(stripe.last_idempotency_key().as_deref(), Some("purchase-42-2"));
}

#[actix_web::test]
async fn reusing_a_key_for_a_different_purchase_is_refused() {
    let stripe = StripeStandIn::start().await;
    let provider = provider(&stripe);
    provider.create_intent(&starter_pack("purchase-42-1")).await.unwrap();

    let popular = NewIntent { amount_cents: 999, package_id: "popular", ..starter_pack("purchase-42-1") };
    let err = provider.create_intent(&popular).await.unwrap_err();
    assert!(matches!(&err, ProviderError::Refused(msg) if msg.contains("idempotent")), "{err:?}");
    assert_eq!(stripe.created_count(), 1);
}

#[actix_web::test]
async fn retrieve_reports_a_new_intent_as_awaiting_payment() {
    let stripe = StripeStandIn::start().await;
    let provider = provider(&stripe);
    let created = provider.create_intent(&starter_pack("k-new")).await.unwrap();

    let intent = provider.retrieve_intent(&created.id).await.unwrap();
    assert_eq!(intent.id, created.id);
    assert_eq!(intent.status, PaymentStatus::RequiresPaymentMethod);
    assert_eq!(intent.amount_cents, 499);
    assert_eq!(intent.user_id, Some(UserId(42)));
    assert_eq!(intent.last_error, None);
}

#[actix_web::test]
async fn retrieve_maps_a_successful_payment() {
    let stripe = StripeStandIn::start().await;
    let provider = provider(&stripe);
    let created = provider.create_intent(&starter_pack("k-paid")).await.unwrap();
    stripe.succeed(&created.id);

    let intent = provider.retrieve_intent(&created.id).await.unwrap();
    assert_eq!(intent.status, PaymentStatus::Succeeded);
    assert_eq!(intent.amount_cents, 499);
    assert_eq!(intent.user_id, Some(UserId(42)));
    assert_eq!(intent.last_error, None);
}

#[actix_web::test]
async fn retrieve_maps_a_declined_card() {
    let stripe = StripeStandIn::start().await;
    let provider = provider(&stripe);
    let created = provider.create_intent(&starter_pack("k-declined")).await.unwrap();
    stripe.decline(&created.id, "Your card was declined.");

    let intent = provider.retrieve_intent(&created.id).await.unwrap();
    assert_eq!(intent.status, PaymentStatus::RequiresPaymentMethod);
    assert_eq!(intent.last_error.as_deref(), Some("Your card was declined."));
}

#[actix_web::test]
async fn retrieve_maps_the_other_statuses() {
    let stripe = StripeStandIn::start().await;
    let provider = provider(&stripe);
    let created = provider.create_intent(&starter_pack("k-statuses")).await.unwrap();
    for (status, expected) in [
        ("processing", PaymentStatus::Processing),
        ("requires_confirmation", PaymentStatus::RequiresConfirmation),
        ("requires_action", PaymentStatus::RequiresAction),
        ("requires_capture", PaymentStatus::RequiresCapture),
        ("canceled", PaymentStatus::Canceled),
        // A status added by Stripe later is never taken for a payment.
        ("requires_something_new", PaymentStatus::Processing),
    ] {
        stripe.set(&created.id, "status", status.into());
        let intent = provider.retrieve_intent(&created.id).await.unwrap();
        assert_eq!(intent.status, expected, "{status}");
    }
}

#[actix_web::test]
async fn retrieve_of_an_unknown_intent_is_not_found() {
    let stripe = StripeStandIn::start().await;
    let provider = provider(&stripe);

    let err = provider.retrieve_intent("pi_doesNotExist000000000000").await.unwrap_err();
    assert!(matches!(err, ProviderError::NotFound), "{err:?}");
    // Not an id at all: refused before any request could reach another path.
    let err = provider.retrieve_intent("pi_1/../../customers").await.unwrap_err();
    assert!(matches!(err, ProviderError::NotFound), "{err:?}");
}

#[actix_web::test]
async fn an_invalid_key_is_refused() {
    let stripe = StripeStandIn::start().await;
    let provider =
        StripeProvider::new(&Secret::new("sk_test_notTheRightKey1234567890"), Some(&stripe.url())).unwrap();

    let err = provider.create_intent(&starter_pack("k-bad-key")).await.unwrap_err();
    match &err {
        ProviderError::Refused(msg) => {
            assert!(msg.starts_with("Invalid API Key provided"), "{msg}");
            assert!(!msg.contains("notTheRightKey"), "the key leaked: {msg}");
        }
        other => panic!("expected Refused, got {other:?}"),
    }
    let err = provider.retrieve_intent("pi_anything").await.unwrap_err();
    assert!(matches!(err, ProviderError::Refused(_)), "{err:?}");
    assert_eq!(stripe.created_count(), 0);
}

#[actix_web::test]
async fn a_provider_that_cannot_be_reached_is_unreachable() {
    // A port that was just free: nothing listens there.
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let base = format!("http://127.0.0.1:{port}");
    let provider = StripeProvider::new(&Secret::new(StripeStandIn::SECRET_KEY), Some(&base)).unwrap();

    let err = provider.create_intent(&starter_pack("k-down")).await.unwrap_err();
    assert!(matches!(err, ProviderError::Unreachable(_)), "{err:?}");
    let err = provider.retrieve_intent("pi_anything").await.unwrap_err();
    assert!(matches!(err, ProviderError::Unreachable(_)), "{err:?}");
}

#[actix_web::test]
async fn the_webhook_event_is_signed_and_carries_the_intent() {
    let stripe = StripeStandIn::start().await;
    let created = provider(&stripe).create_intent(&starter_pack("k-webhook")).await.unwrap();
    stripe.succeed(&created.id);

    let now = chrono::Utc::now();
    let secret = "whsec_standin_test";
    let (body, signature) = stripe.webhook_event(&created.id, secret, now.timestamp());
    setupiq_credits::payments::webhook::verify(body.as_bytes(), &signature, secret, now).unwrap();

    let event: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(event["object"], "event");
    assert_eq!(event["type"], "payment_intent.succeeded");
    assert!(event["id"].as_str().unwrap().starts_with("evt_"));
    assert_eq!(event["data"]["object"]["id"], created.id.as_str());
    assert_eq!(event["data"]["object"]["status"], "succeeded");
    assert_eq!(event["data"]["object"]["metadata"]["user_id"], "42");
}
