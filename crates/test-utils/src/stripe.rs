//! [`StripeStandIn`]: a local HTTP server that answers the two Stripe calls SetupIQ makes
//! (create and retrieve a PaymentIntent) in Stripe's own shapes — form-encoded requests,
//! Bearer keys, `Idempotency-Key`, the PaymentIntent object, the error body — so the real
//! `StripeProvider` is tested over real HTTP. Tests then play the card holder with
//! [`StripeStandIn::succeed`] / [`StripeStandIn::decline`] and Stripe's webhook with
//! [`StripeStandIn::webhook_event`].
//!
//! ```ignore
//! let stripe = StripeStandIn::start().await;
//! let app = TestApp::start_with(db, &[
//!     ("STRIPE_SECRET_KEY", StripeStandIn::SECRET_KEY),
//!     ("SETUPIQ_STRIPE_API_BASE", &stripe.url()),
//! ]).await;
//! ```

use std::collections::{BTreeMap, HashMap};
use std::net::TcpListener;
use std::sync::{Arc, Mutex};

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use serde_json::{Value, json};

use crate::standin::{ErrorAnswer, masked_key, random_chars, random_id};

/// The API version the stand-in claims in events (the one async-stripe pins).
const API_VERSION: &str = "2026-09-30.endive";

/// A loopback server speaking Stripe's REST shapes for PaymentIntents. Stops when dropped.
pub struct StripeStandIn {
    url: String,
    state: Arc<Mutex<State>>,
    server: actix_web::dev::ServerHandle,
}

#[derive(Default)]
struct State {
    /// Intents by id, as Stripe would render them now.
    intents: HashMap<String, Value>,
    /// `Idempotency-Key` -> the parameters first sent with it and the answer given then.
    idempotent: HashMap<String, (BTreeMap<String, String>, Value)>,
    created: usize,
    last_idempotency_key: Option<String>,
    last_create_params: BTreeMap<String, String>,
}

type Shared = Arc<Mutex<State>>;

impl StripeStandIn {
    /// The one secret key the stand-in accepts; any other gets Stripe's 401.
    pub const SECRET_KEY: &'static str = "sk_test_setupiqStandIn0000000000";

    /// Starts listening on `127.0.0.1:0`; runs on the current actix system (`#[actix_web::test]`).
    pub async fn start() -> Self {
        let state: Shared = Arc::default();
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let data = web::Data::new(state.clone());
        let server = actix_web::HttpServer::new(move || {
            actix_web::App::new()
                .app_data(data.clone())
                .route("/v1/payment_intents", web::post().to(create_intent))
                .route("/v1/payment_intents/{id}", web::get().to(retrieve_intent))
                .default_service(web::to(unknown_route))
        })
        .workers(1)
        .disable_signals()
        .listen(listener)
        .unwrap()
        .run();
        let handle = server.handle();
        actix_web::rt::spawn(server);
        Self { url, state, server: handle }
    }

    /// `http://127.0.0.1:PORT`, for `SETUPIQ_STRIPE_API_BASE`.
    pub fn url(&self) -> String {
        self.url.clone()
    }

    /// The card holder paid: status `succeeded`, the full amount received, a charge.
    pub fn succeed(&self, id: &str) {
        self.update(id, |intent| {
            intent["status"] = json!("succeeded");
            intent["amount_received"] = intent["amount"].clone();
            intent["latest_charge"] = json!(random_id("ch_"));
            intent["payment_method"] = json!(random_id("pm_"));
            intent["last_payment_error"] = Value::Null;
        });
    }

    /// The card was declined: like Stripe, the intent goes back to `requires_payment_method`
    /// and `last_payment_error.message` says why.
    pub fn decline(&self, id: &str, message: &str) {
        self.update(id, |intent| {
            intent["status"] = json!("requires_payment_method");
            intent["latest_charge"] = json!(random_id("ch_"));
            intent["last_payment_error"] = json!({
                "type": "card_error",
                "code": "card_declined",
                "decline_code": "generic_decline",
                "doc_url": "https://stripe.com/docs/error-codes/card-declined",
                "message": message,
            });
        });
    }

    /// Sets any field of an intent (e.g. `status` to `processing` or `canceled`).
    pub fn set(&self, id: &str, field: &str, value: Value) {
        self.update(id, |intent| intent[field] = value);
    }

    /// How many intents were created (a replayed idempotent request creates none).
    pub fn created_count(&self) -> usize {
        self.state.lock().unwrap().created
    }

    /// The `Idempotency-Key` of the last create request (`None` if it had none or there was none).
    pub fn last_idempotency_key(&self) -> Option<String> {
        self.state.lock().unwrap().last_idempotency_key.clone()
    }

    /// The decoded form fields of the last create request (`metadata[user_id]`, …).
    pub fn last_create_params(&self) -> BTreeMap<String, String> {
        self.state.lock().unwrap().last_create_params.clone()
    }

    /// The intent as Stripe would return it now.
    pub fn intent(&self, id: &str) -> Option<Value> {
        self.state.lock().unwrap().intents.get(id).cloned()
    }

    /// A `payment_intent.succeeded` event carrying the intent as it is now (call
    /// [`Self::succeed`] first for a genuine one), and its `Stripe-Signature` header value,
    /// signed with `secret` at `timestamp` (Unix seconds).
    pub fn webhook_event(&self, id: &str, secret: &str, timestamp: i64) -> (String, String) {
        self.webhook_event_of_type("payment_intent.succeeded", id, secret, timestamp)
    }

    /// Like [`Self::webhook_event`] with any event type (`payment_intent.payment_failed`, …).
    pub fn webhook_event_of_type(
        &self,
        event_type: &str,
        id: &str,
        secret: &str,
        timestamp: i64,
    ) -> (String, String) {
        let intent = self.intent(id).unwrap_or_else(|| panic!("no such payment_intent: {id}"));
        let body = json!({
            "id": random_id("evt_"),
            "object": "event",
            "api_version": API_VERSION,
            "created": timestamp,
            "data": { "object": intent },
            "livemode": false,
            "pending_webhooks": 1,
            "request": { "id": null, "idempotency_key": null },
            "type": event_type,
        })
        .to_string();
        let signature = setupiq_credits::payments::webhook::sign(body.as_bytes(), secret, timestamp);
        (body, signature)
    }

    fn update(&self, id: &str, change: impl FnOnce(&mut Value)) {
        let mut state = self.state.lock().unwrap();
        let intent = state.intents.get_mut(id).unwrap_or_else(|| panic!("no such payment_intent: {id}"));
        change(intent);
    }
}

impl Drop for StripeStandIn {
    fn drop(&mut self) {
        drop(self.server.stop(false));
    }
}

async fn create_intent(req: HttpRequest, body: web::Bytes, state: web::Data<Shared>) -> HttpResponse {
    if let Err(refusal) = authorize(&req) {
        return refusal.into();
    }
    let params: BTreeMap<String, String> = url::form_urlencoded::parse(&body).into_owned().collect();
    let key = req.headers().get("idempotency-key").and_then(|v| v.to_str().ok()).map(str::to_owned);
    let mut state = state.lock().unwrap();
    state.last_idempotency_key = key.clone();
    state.last_create_params = params.clone();

    if let Some(key) = &key
        && let Some((first_params, answer)) = state.idempotent.get(key)
    {
        if *first_params != params {
            return stripe_error(
                StatusCode::BAD_REQUEST,
                "idempotency_error",
                None,
                &format!(
                    "Keys for idempotent requests can only be used with the same parameters they \
                     were first used with. Try using a key other than '{key}' if you meant to \
                     execute a different request."
                ),
            )
            .into();
        }
        return HttpResponse::Ok().insert_header(("Idempotent-Replayed", "true")).json(answer);
    }

    let intent = match new_intent(&params) {
        Ok(intent) => intent,
        Err(refusal) => return refusal.into(),
    };
    let id = intent["id"].as_str().unwrap_or_default().to_owned();
    state.created += 1;
    state.intents.insert(id, intent.clone());
    if let Some(key) = key {
        state.idempotent.insert(key, (params, intent.clone()));
    }
    HttpResponse::Ok().json(intent)
}

async fn retrieve_intent(req: HttpRequest, id: web::Path<String>, state: web::Data<Shared>) -> HttpResponse {
    if let Err(refusal) = authorize(&req) {
        return refusal.into();
    }
    match state.lock().unwrap().intents.get(id.as_str()) {
        Some(intent) => HttpResponse::Ok().json(intent),
        None => stripe_error(
            StatusCode::NOT_FOUND,
            "invalid_request_error",
            Some(("resource_missing", "intent")),
            &format!("No such payment_intent: '{id}'"),
        )
        .into(),
    }
}

async fn unknown_route(req: HttpRequest) -> HttpResponse {
    stripe_error(
        StatusCode::NOT_FOUND,
        "invalid_request_error",
        None,
        &format!("Unrecognized request URL ({}: {}).", req.method(), req.path()),
    )
    .into()
}

/// Stripe's checks on the create parameters that matter to us, with its messages.
fn new_intent(params: &BTreeMap<String, String>) -> Result<Value, StripeFailure> {
    let invalid = |param: &str, message: String| {
        stripe_error(
            StatusCode::BAD_REQUEST,
            "invalid_request_error",
            Some(("parameter_invalid", param)),
            &message,
        )
    };
    let missing = |param: &str| {
        stripe_error(
            StatusCode::BAD_REQUEST,
            "invalid_request_error",
            Some(("parameter_missing", param)),
            &format!("Missing required param: {param}."),
        )
    };
    let mut metadata = serde_json::Map::new();
    for (name, value) in params {
        if let Some(key) = name.strip_prefix("metadata[").and_then(|k| k.strip_suffix(']')) {
            metadata.insert(key.to_owned(), json!(value));
        } else if !matches!(
            name.as_str(),
            "amount"
                | "currency"
                | "automatic_payment_methods[enabled]"
                | "automatic_payment_methods[allow_redirects]"
                | "description"
        ) {
            return Err(stripe_error(
                StatusCode::BAD_REQUEST,
                "invalid_request_error",
                Some(("parameter_unknown", name)),
                &format!("Received unknown parameter: {name}"),
            ));
        }
    }
    let amount_text = params.get("amount").ok_or_else(|| missing("amount"))?;
    let amount: i64 =
        amount_text.parse().map_err(|_| invalid("amount", format!("Invalid integer: {amount_text}")))?;
    if amount < 1 {
        return Err(invalid("amount", "This value must be greater than or equal to 1.".into()));
    }
    let currency = params.get("currency").ok_or_else(|| missing("currency"))?;
    if currency.len() != 3 || !currency.bytes().all(|b| b.is_ascii_lowercase()) {
        return Err(invalid("currency", format!("Invalid currency: {currency}.")));
    }
    let automatic = match params.get("automatic_payment_methods[enabled]").map(String::as_str) {
        Some("true") => json!({ "allow_redirects": "always", "enabled": true }),
        Some("false") => json!({ "allow_redirects": null, "enabled": false }),
        None => Value::Null,
        Some(other) => {
            return Err(invalid("automatic_payment_methods[enabled]", format!("Invalid boolean: {other}")));
        }
    };
    let id = random_id("pi_");
    let client_secret = format!("{id}_secret_{}", random_chars(25));
    Ok(json!({
        "id": id,
        "object": "payment_intent",
        "amount": amount,
        "amount_capturable": 0,
        "amount_details": { "tip": {} },
        "amount_received": 0,
        "application": null,
        "application_fee_amount": null,
        "automatic_payment_methods": automatic,
        "canceled_at": null,
        "cancellation_reason": null,
        "capture_method": "automatic_async",
        "client_secret": client_secret,
        "confirmation_method": "automatic",
        "created": chrono::Utc::now().timestamp(),
        "currency": currency,
        "customer": null,
        "description": params.get("description"),
        "last_payment_error": null,
        "latest_charge": null,
        "livemode": false,
        "metadata": metadata,
        "next_action": null,
        "on_behalf_of": null,
        "payment_method": null,
        "payment_method_configuration_details": null,
        "payment_method_options": {},
        "payment_method_types": ["card"],
        "processing": null,
        "receipt_email": null,
        "review": null,
        "setup_future_usage": null,
        "shipping": null,
        "source": null,
        "statement_descriptor": null,
        "statement_descriptor_suffix": null,
        "status": "requires_payment_method",
        "transfer_data": null,
        "transfer_group": null,
    }))
}

/// Stripe takes the secret key as a Bearer token; anything else is a 401 in its words.
fn authorize(req: &HttpRequest) -> Result<(), StripeFailure> {
    let header = req.headers().get("authorization").and_then(|v| v.to_str().ok());
    let Some(key) = header.and_then(|h| h.strip_prefix("Bearer ")) else {
        return Err(stripe_error(
            StatusCode::UNAUTHORIZED,
            "invalid_request_error",
            None,
            "You did not provide an API key. You need to provide your API key in the \
             Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY').",
        ));
    };
    if key == StripeStandIn::SECRET_KEY {
        return Ok(());
    }
    let shown = masked_key(key, 8);
    Err(stripe_error(
        StatusCode::UNAUTHORIZED,
        "invalid_request_error",
        Some(("api_key_invalid", "")),
        &format!("Invalid API Key provided: {shown}"),
    ))
}

type StripeFailure = ErrorAnswer;

/// Stripe's error body: `{"error": {"type", "message", "code"?, "param"?, …}}`.
fn stripe_error(
    status: StatusCode,
    kind: &str,
    code_and_param: Option<(&str, &str)>,
    message: &str,
) -> StripeFailure {
    let mut error = json!({
        "type": kind,
        "message": message,
        "request_log_url": format!("https://dashboard.stripe.com/test/logs/{}", random_id("req_")),
    });
    if let Some((code, param)) = code_and_param {
        error["code"] = json!(code);
        error["doc_url"] = json!(format!("https://stripe.com/docs/error-codes/{}", code.replace('_', "-")));
        if !param.is_empty() {
            error["param"] = json!(param);
        }
    }
    StripeFailure { status, body: json!({ "error": error }), request_id_header: "Request-Id" }
}
