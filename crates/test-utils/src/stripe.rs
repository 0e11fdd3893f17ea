//! [`StripeStandIn`]: a local HTTP server that answers the Stripe calls SetupIQ makes
//! (PaymentIntents; and for Pro, Billing's customers, subscriptions, invoices and refunds) in Stripe's
//! own shapes — form-encoded requests, Bearer keys, `Idempotency-Key`, the objects, the error
//! body — so the real `StripeProvider` is tested over real HTTP. Tests then play the card
//! holder with [`StripeStandIn::succeed`] / [`StripeStandIn::decline`] (or
//! [`StripeStandIn::pay_invoice`]), Stripe's billing cycle with [`StripeStandIn::renew`],
//! [`StripeStandIn::fail_renewal`] and [`StripeStandIn::end_subscription`], and Stripe's
//! webhook with [`StripeStandIn::webhook_event`] / [`StripeStandIn::object_event`].
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
    customers: HashMap<String, Value>,
    subscriptions: HashMap<String, Value>,
    invoices: HashMap<String, Value>,
    /// Refunds in the order they were made.
    refunds: Vec<Value>,
    /// `Idempotency-Key` -> the parameters first sent with it and the answer given then.
    idempotent: HashMap<String, (BTreeMap<String, String>, Value)>,
    created: usize,
    /// Every call answers Stripe's 500 while set.
    outage: bool,
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
                .route("/v1/customers", web::post().to(create_customer))
                .route("/v1/subscriptions", web::post().to(create_subscription))
                .route("/v1/subscriptions/{id}", web::get().to(retrieve_subscription))
                .route("/v1/subscriptions/{id}", web::post().to(update_subscription))
                .route("/v1/subscriptions/{id}", web::delete().to(cancel_subscription))
                .route("/v1/invoices/{id}", web::get().to(retrieve_invoice))
                .route("/v1/invoices/{id}/void", web::post().to(void_invoice))
                .route("/v1/refunds", web::post().to(create_refund))
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
        Self::object_event(event_type, intent, secret, timestamp)
    }

    /// The subscription as Stripe would return it now (`latest_invoice` as an id).
    pub fn subscription(&self, id: &str) -> Option<Value> {
        self.state.lock().unwrap().subscriptions.get(id).cloned()
    }

    /// The invoice as Stripe would return it now.
    pub fn invoice(&self, id: &str) -> Option<Value> {
        self.state.lock().unwrap().invoices.get(id).cloned()
    }

    /// Stripe is down (`true`: every call answers its 500 `api_error`) or back (`false`).
    pub fn set_outage(&self, down: bool) {
        self.state.lock().unwrap().outage = down;
    }

    /// How many customers were created (a replayed idempotent request creates none).
    pub fn customer_count(&self) -> usize {
        self.state.lock().unwrap().customers.len()
    }

    /// How many subscriptions were created.
    pub fn subscription_count(&self) -> usize {
        self.state.lock().unwrap().subscriptions.len()
    }

    /// Every subscription, as Stripe would return it now (in no particular order).
    pub fn subscriptions(&self) -> Vec<Value> {
        self.state.lock().unwrap().subscriptions.values().cloned().collect()
    }

    /// Refunds made so far, oldest first, as Stripe returned them.
    pub fn refunds(&self) -> Vec<Value> {
        self.state.lock().unwrap().refunds.clone()
    }

    /// The card holder paid a subscription's open invoice at `at` (Unix seconds): its
    /// PaymentIntent succeeds, the invoice is paid, and the subscription is active with a
    /// period starting then (the first invoice) — as Stripe does once Elements confirms.
    /// Answers `false`, and nothing is paid, when the invoice is no longer open (voided):
    /// Stripe refuses to confirm its payment.
    pub fn pay_invoice(&self, invoice_id: &str, at: i64) -> bool {
        let mut state = self.state.lock().unwrap();
        let invoice =
            state.invoices.get_mut(invoice_id).unwrap_or_else(|| panic!("no such invoice: {invoice_id}"));
        if invoice["status"] != "open" {
            return false;
        }
        invoice["status"] = json!("paid");
        invoice["amount_paid"] = invoice["amount_due"].clone();
        invoice["amount_remaining"] = json!(0);
        invoice["attempted"] = json!(true);
        invoice["attempt_count"] = json!(1);
        invoice["status_transitions"]["paid_at"] = json!(at);
        let subscription_id = invoice_subscription(invoice);
        let intent_id = invoice["confirmation_secret"]["client_secret"]
            .as_str()
            .and_then(|secret| secret.split("_secret_").next())
            .map(str::to_owned);
        if let Some(intent) = intent_id.and_then(|id| state.intents.get_mut(&id)) {
            intent["status"] = json!("succeeded");
            intent["amount_received"] = intent["amount"].clone();
        }
        let subscription = state.subscriptions.get_mut(&subscription_id).expect("the invoice's subscription");
        if subscription["status"] == "incomplete" {
            subscription["status"] = json!("active");
            set_period(subscription, at);
        }
        true
    }

    /// Stripe renewed a subscription at the end of its period and the saved card paid: a new
    /// paid invoice (`billing_reason: subscription_cycle`), the next period. Answers the
    /// invoice's id.
    pub fn renew(&self, subscription_id: &str) -> String {
        self.next_period(subscription_id, true)
    }

    /// Stripe tried to renew and the saved card was declined: an open invoice with one failed
    /// attempt, the subscription `past_due` in its next period. Answers the invoice's id.
    pub fn fail_renewal(&self, subscription_id: &str) -> String {
        self.next_period(subscription_id, false)
    }

    /// Stripe ended the subscription (its retries ran out, or it was cancelled at the end of
    /// its period).
    pub fn end_subscription(&self, subscription_id: &str) {
        let mut state = self.state.lock().unwrap();
        let subscription = state.subscriptions.get_mut(subscription_id).expect("a subscription");
        subscription["status"] = json!("canceled");
        subscription["ended_at"] = subscription["items"]["data"][0]["current_period_end"].clone();
        subscription["canceled_at"] = subscription["ended_at"].clone();
    }

    fn next_period(&self, subscription_id: &str, paid: bool) -> String {
        let mut state = self.state.lock().unwrap();
        let subscription = state.subscriptions.get_mut(subscription_id).expect("a subscription");
        let start = subscription["items"]["data"][0]["current_period_end"].as_i64().expect("a paid period");
        set_period(subscription, start);
        subscription["status"] = json!(if paid { "active" } else { "past_due" });
        let customer = subscription["customer"].as_str().unwrap_or_default().to_owned();
        let amount = subscription["items"]["data"][0]["price"]["unit_amount"].as_i64().unwrap_or_default();
        let currency = subscription["currency"].as_str().unwrap_or("usd").to_owned();
        let mut invoice =
            new_invoice(subscription_id, &customer, amount, &currency, "subscription_cycle", start);
        invoice["attempted"] = json!(true);
        invoice["attempt_count"] = json!(1);
        if paid {
            invoice["status"] = json!("paid");
            invoice["amount_paid"] = json!(amount);
            invoice["amount_remaining"] = json!(0);
            invoice["status_transitions"]["paid_at"] = json!(start);
        }
        let id = invoice["id"].as_str().unwrap_or_default().to_owned();
        subscription["latest_invoice"] = json!(id);
        state.invoices.insert(id.clone(), invoice);
        id
    }

    /// An event of `event_type` carrying `object` (a subscription or an invoice as
    /// [`Self::subscription`] / [`Self::invoice`] return it), and its `Stripe-Signature`
    /// header value, signed with `secret` at `timestamp` (Unix seconds).
    pub fn object_event(event_type: &str, object: Value, secret: &str, timestamp: i64) -> (String, String) {
        let body = json!({
            "id": random_id("evt_"),
            "object": "event",
            "api_version": API_VERSION,
            "created": timestamp,
            "data": { "object": object },
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
    let (params, key) = match begin_create(&req, &body, &state) {
        Ok(create) => create,
        Err(answer) => return *answer,
    };
    let mut state = state.lock().unwrap();

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

/// A form-encoded request body, decoded (`metadata[user_id]` → value).
type Form = BTreeMap<String, String>;

/// The start of every create: the key checked, the form read and remembered with its
/// `Idempotency-Key`, and Stripe's idempotency: a key seen before with the same parameters
/// replays its answer, with others it is refused (`Err`: the answer to give).
fn begin_create(
    req: &HttpRequest,
    body: &[u8],
    state: &Shared,
) -> Result<(Form, Option<String>), Box<HttpResponse>> {
    authorize(req).map_err(|refusal| Box::new(HttpResponse::from(refusal)))?;
    let params = form_of(body);
    let key = req.headers().get("idempotency-key").and_then(|v| v.to_str().ok()).map(str::to_owned);
    let mut state = state.lock().unwrap();
    state.last_idempotency_key = key.clone();
    state.last_create_params = params.clone();
    match replay(&state, key.as_ref(), &params) {
        Some(answer) => Err(Box::new(answer)),
        None => Ok((params, key)),
    }
}

/// A key seen before with the same parameters replays its answer; with others it is
/// refused. `None` means: go on and create.
fn replay(state: &State, key: Option<&String>, params: &BTreeMap<String, String>) -> Option<HttpResponse> {
    let (first_params, answer) = state.idempotent.get(key?)?;
    if first_params != params {
        let key = key.map(String::as_str).unwrap_or_default();
        return Some(
            stripe_error(
                StatusCode::BAD_REQUEST,
                "idempotency_error",
                None,
                &format!(
                    "Keys for idempotent requests can only be used with the same parameters they \
                     were first used with. Try using a key other than '{key}' if you meant to \
                     execute a different request."
                ),
            )
            .into(),
        );
    }
    Some(HttpResponse::Ok().insert_header(("Idempotent-Replayed", "true")).json(answer))
}

fn form_of(body: &[u8]) -> BTreeMap<String, String> {
    url::form_urlencoded::parse(body).into_owned().collect()
}

fn metadata_of(params: &BTreeMap<String, String>) -> serde_json::Map<String, Value> {
    params
        .iter()
        .filter_map(|(name, value)| {
            let key = name.strip_prefix("metadata[")?.strip_suffix(']')?;
            Some((key.to_owned(), json!(value)))
        })
        .collect()
}

fn missing_param(param: &str) -> StripeFailure {
    stripe_error(
        StatusCode::BAD_REQUEST,
        "invalid_request_error",
        Some(("parameter_missing", param)),
        &format!("Missing required param: {param}."),
    )
}

fn no_such(kind: &str, id: &str) -> HttpResponse {
    stripe_error(
        StatusCode::NOT_FOUND,
        "invalid_request_error",
        Some(("resource_missing", "id")),
        &format!("No such {kind}: '{id}'"),
    )
    .into()
}

async fn create_customer(req: HttpRequest, body: web::Bytes, state: web::Data<Shared>) -> HttpResponse {
    let (params, key) = match begin_create(&req, &body, &state) {
        Ok(create) => create,
        Err(answer) => return *answer,
    };
    let mut state = state.lock().unwrap();
    let customer = json!({
        "id": random_id("cus_"),
        "object": "customer",
        "created": chrono::Utc::now().timestamp(),
        "email": params.get("email"),
        "livemode": false,
        "metadata": metadata_of(&params),
        "invoice_settings": { "default_payment_method": null },
    });
    let id = customer["id"].as_str().unwrap_or_default().to_owned();
    state.customers.insert(id, customer.clone());
    if let Some(key) = key {
        state.idempotent.insert(key, (params, customer.clone()));
    }
    HttpResponse::Ok().json(customer)
}

/// A subscription with one item priced by `items[0][price_data]`, created `incomplete` with
/// an open first invoice (`payment_behavior=default_incomplete`, the only behaviour SetupIQ
/// uses, so the only one accepted), its PaymentIntent, and `latest_invoice` expanded when
/// asked for.
async fn create_subscription(req: HttpRequest, body: web::Bytes, state: web::Data<Shared>) -> HttpResponse {
    let (params, key) = match begin_create(&req, &body, &state) {
        Ok(create) => create,
        Err(answer) => return *answer,
    };
    let mut state = state.lock().unwrap();
    let Some(customer) = params.get("customer") else { return missing_param("customer").into() };
    if !state.customers.contains_key(customer) {
        return no_such("customer", customer);
    }
    for required in [
        "items[0][price_data][currency]",
        "items[0][price_data][product]",
        "items[0][price_data][unit_amount]",
        "items[0][price_data][recurring][interval]",
    ] {
        if !params.contains_key(required) {
            return missing_param(required).into();
        }
    }
    if params.get("payment_behavior").map(String::as_str) != Some("default_incomplete") {
        return stripe_error(
            StatusCode::BAD_REQUEST,
            "invalid_request_error",
            Some(("parameter_invalid", "payment_behavior")),
            "The stand-in only opens subscriptions with payment_behavior=default_incomplete.",
        )
        .into();
    }
    let amount: i64 = params["items[0][price_data][unit_amount]"].parse().unwrap_or(0);
    let currency = params["items[0][price_data][currency]"].clone();
    let interval = params["items[0][price_data][recurring][interval]"].clone();
    let now = chrono::Utc::now().timestamp();
    let id = random_id("sub_");
    let mut invoice = new_invoice(&id, customer, amount, &currency, "subscription_create", now);
    let intent_id = random_id("pi_");
    let client_secret = format!("{intent_id}_secret_{}", random_chars(25));
    invoice["confirmation_secret"] = json!({ "client_secret": client_secret, "type": "payment_intent" });
    invoice["payments"] = json!({
        "object": "list",
        "data": [{
            "id": random_id("inpay_"),
            "object": "invoice_payment",
            "invoice": invoice["id"],
            "is_default": true,
            "payment": { "type": "payment_intent", "payment_intent": intent_id },
            "status": "open",
        }],
        "has_more": false,
        "url": "/v1/invoice_payments",
    });
    state.intents.insert(
        intent_id.clone(),
        json!({
            "id": intent_id, "object": "payment_intent", "amount": amount, "amount_received": 0,
            "currency": currency, "customer": customer, "client_secret": client_secret,
            "status": "requires_payment_method", "metadata": {}, "livemode": false,
            "created": now, "capture_method": "automatic", "confirmation_method": "automatic",
            "payment_method_types": ["card"],
        }),
    );
    let invoice_id = invoice["id"].as_str().unwrap_or_default().to_owned();
    let mut subscription = json!({
        "id": id,
        "object": "subscription",
        "automatic_tax": { "disabled_reason": null, "enabled": false, "liability": null },
        "billing_cycle_anchor": now,
        "billing_mode": { "type": "flexible" },
        "cancel_at": null,
        "cancel_at_period_end": false,
        "canceled_at": null,
        "collection_method": "charge_automatically",
        "created": now,
        "currency": currency,
        "customer": customer,
        "discounts": [],
        "ended_at": null,
        "invoice_settings": { "issuer": { "type": "self" } },
        "items": {
            "object": "list",
            "data": [{
                "id": random_id("si_"),
                "object": "subscription_item",
                "created": now,
                "current_period_start": now,
                "current_period_end": period_end(now, &interval),
                "discounts": [],
                "metadata": {},
                "price": {
                    "id": random_id("price_"),
                    "object": "price",
                    "active": false,
                    "currency": currency,
                    "product": params["items[0][price_data][product]"],
                    "recurring": { "interval": interval, "interval_count": 1, "usage_type": "licensed" },
                    "type": "recurring",
                    "unit_amount": amount,
                },
                "quantity": 1,
                "subscription": id,
            }],
            "has_more": false,
            "url": format!("/v1/subscription_items?subscription={id}"),
        },
        "latest_invoice": invoice_id,
        "livemode": false,
        "metadata": metadata_of(&params),
        "payment_settings": {
            "save_default_payment_method": params.get("payment_settings[save_default_payment_method]"),
        },
        "start_date": now,
        "status": "incomplete",
    });
    state.subscriptions.insert(id.clone(), subscription.clone());
    state.invoices.insert(invoice_id, invoice.clone());
    if params.values().any(|v| v == "latest_invoice.confirmation_secret" || v == "latest_invoice") {
        invoice["payments"] = Value::Null;
        subscription["latest_invoice"] = invoice;
    }
    if let Some(key) = key {
        state.idempotent.insert(key, (params, subscription.clone()));
    }
    HttpResponse::Ok().json(subscription)
}

async fn retrieve_subscription(
    req: HttpRequest,
    id: web::Path<String>,
    state: web::Data<Shared>,
) -> HttpResponse {
    if let Err(refusal) = authorize(&req) {
        return refusal.into();
    }
    match state.lock().unwrap().subscriptions.get(id.as_str()) {
        Some(subscription) => HttpResponse::Ok().json(subscription),
        None => no_such("subscription", &id),
    }
}

/// Only `cancel_at_period_end` is changed by SetupIQ; a cancelled subscription cannot be.
async fn update_subscription(
    req: HttpRequest,
    id: web::Path<String>,
    body: web::Bytes,
    state: web::Data<Shared>,
) -> HttpResponse {
    if let Err(refusal) = authorize(&req) {
        return refusal.into();
    }
    let params = form_of(&body);
    let mut state = state.lock().unwrap();
    let Some(subscription) = state.subscriptions.get_mut(id.as_str()) else {
        return no_such("subscription", &id);
    };
    if subscription["status"] == "canceled" {
        return stripe_error(
            StatusCode::BAD_REQUEST,
            "invalid_request_error",
            None,
            "A canceled subscription can only update its cancellation_details and metadata.",
        )
        .into();
    }
    if let Some(flag) = params.get("cancel_at_period_end") {
        let cancel = flag == "true";
        subscription["cancel_at_period_end"] = json!(cancel);
        subscription["cancel_at"] =
            if cancel { subscription["items"]["data"][0]["current_period_end"].clone() } else { Value::Null };
    }
    HttpResponse::Ok().json(subscription.clone())
}

async fn cancel_subscription(
    req: HttpRequest,
    id: web::Path<String>,
    state: web::Data<Shared>,
) -> HttpResponse {
    if let Err(refusal) = authorize(&req) {
        return refusal.into();
    }
    let mut state = state.lock().unwrap();
    let Some(subscription) = state.subscriptions.get_mut(id.as_str()) else {
        return no_such("subscription", &id);
    };
    let now = chrono::Utc::now().timestamp();
    subscription["status"] = json!("canceled");
    subscription["canceled_at"] = json!(now);
    subscription["ended_at"] = json!(now);
    HttpResponse::Ok().json(subscription.clone())
}

async fn retrieve_invoice(req: HttpRequest, id: web::Path<String>, state: web::Data<Shared>) -> HttpResponse {
    if let Err(refusal) = authorize(&req) {
        return refusal.into();
    }
    let query = form_of(req.query_string().as_bytes());
    match state.lock().unwrap().invoices.get(id.as_str()) {
        Some(invoice) => {
            let mut invoice = invoice.clone();
            // Only sent when expanded.
            invoice["confirmation_secret"] = Value::Null;
            if !query.values().any(|field| field == "payments") {
                invoice["payments"] = Value::Null;
            }
            HttpResponse::Ok().json(invoice)
        }
        None => no_such("invoice", &id),
    }
}

/// Voids an open invoice (it can no longer be paid); any other is refused, as Stripe does.
async fn void_invoice(req: HttpRequest, id: web::Path<String>, state: web::Data<Shared>) -> HttpResponse {
    if let Err(refusal) = authorize(&req) {
        return refusal.into();
    }
    let mut state = state.lock().unwrap();
    let Some(invoice) = state.invoices.get_mut(id.as_str()) else { return no_such("invoice", &id) };
    if invoice["status"] != "open" {
        return stripe_error(
            StatusCode::BAD_REQUEST,
            "invalid_request_error",
            Some(("invoice_not_open", "id")),
            "You can only pass in open invoices. This invoice isn't open.",
        )
        .into();
    }
    invoice["status"] = json!("void");
    invoice["status_transitions"]["voided_at"] = json!(chrono::Utc::now().timestamp());
    let mut answer = invoice.clone();
    answer["payments"] = Value::Null;
    HttpResponse::Ok().json(answer)
}

/// Refunds a succeeded PaymentIntent in full (`payment_intent`), once: a second refund of the
/// same intent is refused as Stripe refuses it (`charge_already_refunded`).
async fn create_refund(req: HttpRequest, body: web::Bytes, state: web::Data<Shared>) -> HttpResponse {
    let (params, key) = match begin_create(&req, &body, &state) {
        Ok(create) => create,
        Err(answer) => return *answer,
    };
    let mut state = state.lock().unwrap();
    let Some(intent_id) = params.get("payment_intent") else { return missing_param("payment_intent").into() };
    let Some(intent) = state.intents.get(intent_id) else { return no_such("payment_intent", intent_id) };
    if intent["status"] != "succeeded" {
        return stripe_error(
            StatusCode::BAD_REQUEST,
            "invalid_request_error",
            Some(("payment_intent_unexpected_state", "payment_intent")),
            "This PaymentIntent does not have a successful charge to refund.",
        )
        .into();
    }
    if state.refunds.iter().any(|refund| refund["payment_intent"] == intent_id.as_str()) {
        return stripe_error(
            StatusCode::BAD_REQUEST,
            "invalid_request_error",
            Some(("charge_already_refunded", "payment_intent")),
            &format!("Charge for {intent_id} has already been refunded."),
        )
        .into();
    }
    let refund = json!({
        "id": random_id("re_"),
        "object": "refund",
        "amount": intent["amount_received"],
        "currency": intent["currency"],
        "created": chrono::Utc::now().timestamp(),
        "metadata": metadata_of(&params),
        "payment_intent": intent_id,
        "reason": params.get("reason"),
        "status": "succeeded",
    });
    state.refunds.push(refund.clone());
    if let Some(key) = key {
        state.idempotent.insert(key, (params, refund.clone()));
    }
    HttpResponse::Ok().json(refund)
}

/// An open invoice of a subscription for one period of `amount`.
fn new_invoice(
    subscription: &str,
    customer: &str,
    amount: i64,
    currency: &str,
    reason: &str,
    at: i64,
) -> Value {
    json!({
        "id": random_id("in_"),
        "object": "invoice",
        "amount_due": amount,
        "amount_overpaid": 0,
        "amount_paid": 0,
        "amount_remaining": amount,
        "amount_shipping": 0,
        "attempt_count": 0,
        "attempted": false,
        "automatic_tax": { "enabled": false, "status": null },
        "billing_reason": reason,
        "collection_method": "charge_automatically",
        "created": at,
        "currency": currency,
        "customer": customer,
        "default_tax_rates": [],
        "discounts": [],
        "issuer": { "type": "self" },
        "lines": { "object": "list", "data": [], "has_more": false, "url": "/v1/invoices/lines" },
        "livemode": false,
        "parent": {
            "type": "subscription_details",
            "quote_details": null,
            "subscription_details": { "metadata": {}, "subscription": subscription },
        },
        "payment_settings": {},
        "period_end": at,
        "period_start": at,
        "post_payment_credit_notes_amount": 0,
        "pre_payment_credit_notes_amount": 0,
        "starting_balance": 0,
        "status": "open",
        "status_transitions": { "finalized_at": at, "paid_at": null },
        "subtotal": amount,
        "total": amount,
    })
}

fn invoice_subscription(invoice: &Value) -> String {
    invoice["parent"]["subscription_details"]["subscription"].as_str().unwrap_or_default().to_owned()
}

/// The end of a period of `interval` (`month`, `year`) starting at `start`.
fn period_end(start: i64, interval: &str) -> i64 {
    let months = if interval == "year" { 12 } else { 1 };
    chrono::DateTime::from_timestamp(start, 0)
        .and_then(|t| t.checked_add_months(chrono::Months::new(months)))
        .map_or(start, |t| t.timestamp())
}

/// Starts the subscription's next period at `start`.
fn set_period(subscription: &mut Value, start: i64) {
    let item = &mut subscription["items"]["data"][0];
    let interval = item["price"]["recurring"]["interval"].as_str().unwrap_or("month").to_owned();
    item["current_period_start"] = json!(start);
    item["current_period_end"] = json!(period_end(start, &interval));
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
    if req.app_data::<web::Data<Shared>>().is_some_and(|state| state.lock().unwrap().outage) {
        return Err(stripe_error(
            StatusCode::INTERNAL_SERVER_ERROR,
            "api_error",
            None,
            "An unknown error occurred while processing your request. Please try again later.",
        ));
    }
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
