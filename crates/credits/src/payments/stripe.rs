//! Real Stripe PaymentIntents through `async-stripe` (its hyper client with native-tls and
//! only the `payment_intent` requests of `async-stripe-core`).
//!
//! Two calls are used: create (amount, currency, automatic payment methods, our user and pack
//! in the metadata, and the pending purchase's `Idempotency-Key`, so a retried purchase yields the
//! intent it already has) and
//! retrieve (the status that decides whether credits are granted). `SETUPIQ_STRIPE_API_BASE`
//! points the client elsewhere, e.g. at the stand-in the tests run on a loopback port.

use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use setupiq_core::UserId;
use setupiq_core::config::Secret;
use stripe::{ClientBuilder, IdempotencyKey, RequestStrategy, StripeError};
use stripe_core::payment_intent::{
    CreatePaymentIntent, CreatePaymentIntentAutomaticPaymentMethods, RetrievePaymentIntent,
};
use stripe_core::{PaymentIntent, PaymentIntentStatus};
use stripe_types::Currency;

use super::{CreatedIntent, NewIntent, PaymentStatus, ProviderError, RetrievedIntent};

/// Stripe's API, used when `SETUPIQ_STRIPE_API_BASE` is not set.
pub const DEFAULT_API_BASE: &str = "https://api.stripe.com/";

/// Each attempt's budget; a purchase is waiting on it.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

/// Stripe PaymentIntents. Small and cheap to clone: the HTTP client (several hundred bytes)
/// lives behind an `Arc` and is shared.
#[derive(Clone)]
pub struct StripeProvider {
    client: Arc<stripe::Client>,
    api_base: Arc<str>,
}

impl fmt::Debug for StripeProvider {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("StripeProvider")
            .field("api_base", &self.api_base)
            .field("secret_key", &"[redacted]")
            .finish()
    }
}

impl StripeProvider {
    /// A client for `secret_key` (`sk_…`), talking to `api_base` (`http(s)://host[:port][/prefix]`)
    /// or to Stripe itself. Only the configuration is checked here; no request is made.
    pub fn new(secret_key: &Secret, api_base: Option<&str>) -> Result<Self, ProviderError> {
        let key = secret_key.expose().trim();
        if key.is_empty() {
            return Err(config_error("the secret key is empty"));
        }
        let api_base = normalise_api_base(api_base.unwrap_or(DEFAULT_API_BASE))?;
        let client = ClientBuilder::new(key)
            .url(api_base.clone())
            .timeout(REQUEST_TIMEOUT)
            .app_info("SetupIQ", Some(env!("CARGO_PKG_VERSION").to_owned()), None)
            .build()
            .map_err(|err| match err {
                // The builder's messages never contain the key itself.
                StripeError::ConfigError(msg) | StripeError::ClientError(msg) => config_error(&msg),
                other => config_error(&other.to_string()),
            })?;
        Ok(Self { client: Arc::new(client), api_base: api_base.into() })
    }

    pub(super) fn client(&self) -> &stripe::Client {
        &self.client
    }

    /// The base URL requests go to (`…/` + `v1/payment_intents`).
    pub fn api_base(&self) -> &str {
        &self.api_base
    }

    /// Creates a PaymentIntent. Sending the same `idempotency_key` again (within Stripe's 24 h)
    /// returns the intent the first call created instead of a second one.
    pub async fn create_intent(&self, new: &NewIntent<'_>) -> Result<CreatedIntent, ProviderError> {
        let key = IdempotencyKey::new(new.idempotency_key)
            .map_err(|err| ProviderError::Refused(format!("unusable idempotency key: {err}")))?;
        let Ok(currency) = new.currency.parse::<Currency>();
        let metadata = HashMap::from([
            ("user_id".to_owned(), new.user_id.to_string()),
            ("package_id".to_owned(), new.package_id.to_owned()),
        ]);
        let request = CreatePaymentIntent::new(new.amount_cents, currency)
            .automatic_payment_methods(CreatePaymentIntentAutomaticPaymentMethods::new(true))
            .metadata(metadata);
        let intent = stripe::StripeRequest::customize(&request)
            .request_strategy(RequestStrategy::Idempotent(key))
            .send(self.client.as_ref())
            .await
            .map_err(|err| provider_error("create a PaymentIntent", err))?;
        let client_secret = intent.client_secret.ok_or_else(|| {
            ProviderError::Unreachable("Stripe returned a PaymentIntent without a client secret".into())
        })?;
        Ok(CreatedIntent { id: intent.id.as_str().to_owned(), client_secret })
    }

    /// Fetches a PaymentIntent. An id Stripe does not know (or one that cannot be an id)
    /// is [`ProviderError::NotFound`].
    pub async fn retrieve_intent(&self, id: &str) -> Result<RetrievedIntent, ProviderError> {
        // The id becomes part of the URL path unescaped: anything but an id's characters
        // could address another resource.
        if !is_plausible_id(id) {
            return Err(ProviderError::NotFound);
        }
        let intent =
            RetrievePaymentIntent::new(id).send(self.client.as_ref()).await.map_err(|err| match err {
                StripeError::Stripe(_, 404) => ProviderError::NotFound,
                other => provider_error("retrieve a PaymentIntent", other),
            })?;
        Ok(retrieved(intent))
    }
}

fn retrieved(intent: PaymentIntent) -> RetrievedIntent {
    let status = match intent.status {
        PaymentIntentStatus::Succeeded => PaymentStatus::Succeeded,
        PaymentIntentStatus::Processing => PaymentStatus::Processing,
        PaymentIntentStatus::RequiresPaymentMethod => PaymentStatus::RequiresPaymentMethod,
        PaymentIntentStatus::RequiresConfirmation => PaymentStatus::RequiresConfirmation,
        PaymentIntentStatus::RequiresAction => PaymentStatus::RequiresAction,
        PaymentIntentStatus::RequiresCapture => PaymentStatus::RequiresCapture,
        PaymentIntentStatus::Canceled => PaymentStatus::Canceled,
        // A status this build does not know is never treated as paid; "processing" makes the
        // caller look again later rather than fail the purchase.
        other => {
            tracing::warn!(status = other.as_str(), intent = %intent.id, "unknown PaymentIntent status");
            PaymentStatus::Processing
        }
    };
    RetrievedIntent {
        user_id: intent.metadata.get("user_id").and_then(|v| v.parse().ok()).map(UserId),
        last_error: intent.last_payment_error.and_then(|err| err.message),
        amount_cents: intent.amount,
        status,
        id: intent.id.as_str().to_owned(),
    }
}

/// Stripe answered with an error status: 4xx (bad key, bad parameters, idempotency conflict)
/// is a refusal; 429 and 5xx, timeouts, network failures and unreadable answers mean the
/// provider could not be used just now.
pub(super) fn provider_error(action: &str, err: StripeError) -> ProviderError {
    match err {
        StripeError::Stripe(api, status) => {
            let message = api.message.clone().unwrap_or_else(|| api.type_.as_str().to_owned());
            if status == 429 || status >= 500 {
                ProviderError::Unreachable(format!("Stripe answered {status}: {message}"))
            } else {
                ProviderError::Refused(message)
            }
        }
        StripeError::ConfigError(msg) => ProviderError::Refused(msg),
        StripeError::JSONDeserialize(msg) => {
            ProviderError::Unreachable(format!("unexpected answer when trying to {action}: {msg}"))
        }
        StripeError::ClientError(msg) => ProviderError::Unreachable(msg),
        StripeError::Timeout => {
            ProviderError::Unreachable(format!("no answer within {}s", REQUEST_TIMEOUT.as_secs()))
        }
    }
}

fn config_error(reason: &str) -> ProviderError {
    ProviderError::Refused(format!("invalid Stripe configuration: {reason}"))
}

/// `http(s)://host[:port][/prefix]` with a trailing slash: the client appends `v1/…` to it.
fn normalise_api_base(raw: &str) -> Result<String, ProviderError> {
    let raw = raw.trim();
    let rest = raw
        .strip_prefix("https://")
        .or_else(|| raw.strip_prefix("http://"))
        .ok_or_else(|| config_error("SETUPIQ_STRIPE_API_BASE must be an http(s) URL"))?;
    if rest.is_empty() || rest.starts_with('/') || rest.contains(['?', '#', ' ']) {
        return Err(config_error("SETUPIQ_STRIPE_API_BASE must be http(s)://host[:port][/path]"));
    }
    let mut base = raw.to_owned();
    if !base.ends_with('/') {
        base.push('/');
    }
    Ok(base)
}

/// Stripe ids are `prefix_` plus letters and digits.
pub(super) fn is_plausible_id(id: &str) -> bool {
    !id.is_empty() && id.len() <= 255 && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_does_not_show_the_key() {
        let provider = StripeProvider::new(&Secret::new("sk_test_very_secret_123"), None).unwrap();
        let shown = format!("{provider:?}");
        assert!(!shown.contains("very_secret"), "{shown}");
        assert!(shown.contains("[redacted]"), "{shown}");
        assert_eq!(provider.api_base(), DEFAULT_API_BASE);
    }

    #[test]
    fn is_small_enough_to_hold_by_value() {
        assert!(std::mem::size_of::<StripeProvider>() <= 32);
    }

    #[test]
    fn api_base_gets_a_trailing_slash() {
        let key = Secret::new("sk_test_x");
        let at = |base: &str| StripeProvider::new(&key, Some(base)).map(|p| p.api_base().to_owned());
        assert_eq!(at("http://127.0.0.1:4242").unwrap(), "http://127.0.0.1:4242/");
        assert_eq!(at("https://proxy.example/stripe").unwrap(), "https://proxy.example/stripe/");
        assert_eq!(at("https://api.stripe.com/").unwrap(), "https://api.stripe.com/");
    }

    #[test]
    fn refuses_unusable_configuration() {
        let key = Secret::new("sk_test_x");
        for base in ["", "api.stripe.com", "ftp://x", "http://", "http:///v1", "http://h?x=1"] {
            assert!(
                matches!(StripeProvider::new(&key, Some(base)), Err(ProviderError::Refused(_))),
                "{base}"
            );
        }
        assert!(matches!(StripeProvider::new(&Secret::new(" "), None), Err(ProviderError::Refused(_))));
        let with_newline = StripeProvider::new(&Secret::new("sk_test_\nx"), None);
        assert!(matches!(with_newline, Err(ProviderError::Refused(_))));
    }

    #[test]
    fn ids_that_could_leave_the_path_are_not_plausible() {
        assert!(is_plausible_id("pi_3MtwBwLkdIwHu7ix28a3tqPa"));
        for id in ["", "pi_1/../../customers/cus_1", "pi_1?expand[]=x", "pi 1", "pi_1#", "pi_é"] {
            assert!(!is_plausible_id(id), "{id}");
        }
    }
}
