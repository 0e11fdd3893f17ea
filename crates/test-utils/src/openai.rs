//! [`OpenAiStandIn`]: a local HTTP server speaking OpenAI's chat-completions API — Bearer
//! keys, the request checks that matter to us (a model, messages with text or an image part,
//! a strict `json_schema` response format), the `chat.completion` object and OpenAI's error
//! body — so the real `OpenAiAnalyzer` and its reqwest client are tested over real HTTP.
//!
//! It is stricter than OpenAI in one respect: a request without a `json_schema` response
//! format is refused, because every SetupIQ request must carry one. Strict schemas are
//! checked as OpenAI checks them (every object closes `additionalProperties` and requires all
//! of its properties).
//!
//! ```ignore
//! let provider = OpenAiStandIn::start(OpenAiBehaviour::Success(serde_json::to_value(&assessment)?)).await;
//! let config = OpenAiConfig {
//!     base_url: Some(provider.base_url()),
//!     api_key: Some(Secret::new(OpenAiStandIn::API_KEY)),
//!     ..
//! };
//! ```

use std::net::TcpListener;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use serde_json::{Value, json};

use crate::standin::{ErrorAnswer, masked_key, random_id};

/// Largest request body accepted; OpenAI takes images up to 20 MB, base64 adds a third.
const MAX_REQUEST_BYTES: usize = 32 * 1024 * 1024;

/// How the stand-in answers chat completions (switch with [`OpenAiStandIn::set_behaviour`]).
#[derive(Debug, Clone)]
pub enum OpenAiBehaviour {
    /// 200, with this assessment (serialised to a JSON string) as the message content.
    Success(Value),
    /// Like `Success`, after holding the request this long (to observe concurrency).
    Delayed(Duration, Value),
    /// 500 with OpenAI's `server_error` body.
    ServerError,
    /// Never answers: the handler awaits a future that never completes.
    Hang,
    /// 200 whose message content is prose, not JSON.
    Malformed,
    /// 200 with JSON in the schema's shape, but Cable Management scored 11.
    OutOfRange,
    /// 200 where the model declined: `content: null` and a `refusal`.
    Refusal,
}

/// One request that reached the endpoint with a JSON body.
#[derive(Debug, Clone)]
pub struct RecordedChatRequest {
    /// The `Authorization` header as sent.
    pub authorization: Option<String>,
    pub body: Value,
}

/// A loopback server speaking OpenAI's chat-completions API. Stops when dropped.
pub struct OpenAiStandIn {
    base_url: String,
    state: Shared,
    server: actix_web::dev::ServerHandle,
}

struct State {
    behaviour: OpenAiBehaviour,
    /// Like OpenAI (`true`) or like Ollama, which ignores the key (`false`).
    require_key: bool,
    requests: Vec<RecordedChatRequest>,
    in_flight: usize,
    peak_in_flight: usize,
}

type Shared = Arc<Mutex<State>>;

impl OpenAiStandIn {
    /// The one key the stand-in accepts; any other gets OpenAI's 401.
    pub const API_KEY: &'static str = "sk-setupiq-standin-7f3a9c2e51d84b06";

    /// Starts listening on `127.0.0.1:0`; runs on the current actix system (`#[actix_web::test]`).
    pub async fn start(behaviour: OpenAiBehaviour) -> Self {
        let state: Shared = Arc::new(Mutex::new(State {
            behaviour,
            require_key: true,
            requests: Vec::new(),
            in_flight: 0,
            peak_in_flight: 0,
        }));
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let base_url = format!("http://{}/v1", listener.local_addr().unwrap());
        let data = web::Data::new(state.clone());
        let server = actix_web::HttpServer::new(move || {
            actix_web::App::new()
                .app_data(data.clone())
                .app_data(web::PayloadConfig::new(MAX_REQUEST_BYTES))
                .route("/v1/chat/completions", web::post().to(chat_completions))
                .default_service(web::to(unknown_route))
        })
        .workers(1)
        .disable_signals()
        .listen(listener)
        .unwrap()
        .run();
        let handle = server.handle();
        actix_web::rt::spawn(server);
        Self { base_url, state, server: handle }
    }

    /// `http://127.0.0.1:PORT/v1`, for `SETUPIQ_OPENAI_BASE_URL`.
    pub fn base_url(&self) -> String {
        self.base_url.clone()
    }

    pub fn set_behaviour(&self, behaviour: OpenAiBehaviour) {
        self.state.lock().unwrap().behaviour = behaviour;
    }

    /// Accepts requests without a key, like Ollama or llama.cpp server.
    pub fn without_auth(&self) {
        self.state.lock().unwrap().require_key = false;
    }

    /// Every authorised request with a JSON body, in arrival order (including ones then
    /// refused as invalid).
    pub fn requests(&self) -> Vec<RecordedChatRequest> {
        self.state.lock().unwrap().requests.clone()
    }

    /// The most chat completions that were being answered at the same moment.
    pub fn peak_in_flight(&self) -> usize {
        self.state.lock().unwrap().peak_in_flight
    }

    /// A valid assessment in the result schema, as a provider would write it.
    pub fn sample_assessment() -> Value {
        json!({
            "overallScore": 7.4,
            "summary": "A clean dual-monitor setup with warm bias lighting. Cables are mostly hidden.",
            "category": "Minimal Workspace",
            "categoryRatings": [
                rating("Cable Management", 7, "One power cable hangs loose behind the desk."),
                rating("RGB/Lighting", 8, "Warm LED strip behind the monitors."),
                rating("Desk Cleanliness", 8, "Only a mug and a notebook on the desk."),
                rating("Monitor Setup", 8, "Two 27-inch monitors on a dual arm at eye level."),
                rating("Chair & Comfort", 6, "A mesh office chair without a headrest."),
                rating("Aesthetic Vibe", 7, "Black and wood tones with one plant."),
            ],
            "cableInventory": {
                "type": "cables_found",
                "cables": [{
                    "cableType": "power",
                    "location": "behind the desk, right side",
                    "isAesthetic": false,
                    "description": "A loose black power cable.",
                }],
                "totalCount": 1,
            },
        })
    }

    /// [`Self::sample_assessment`] of a photo without a chair in it: Chair & Comfort is `null`
    /// and the overall score the mean of the other five (weights renormalised).
    pub fn sample_assessment_without_chair() -> Value {
        let mut assessment = Self::sample_assessment();
        assessment["categoryRatings"][4] = json!({
            "category": "Chair & Comfort",
            "score": null,
            "comment": "No chair in view: comfort can't be judged from this photo.",
        });
        // (0.15*7 + 0.15*8 + 0.2*8 + 0.2*8 + 0.2*7) / 0.9
        assessment["overallScore"] = json!(7.6);
        assessment
    }
}

/// One category rating as a provider writes it.
fn rating(category: &str, score: u8, comment: &str) -> Value {
    json!({ "category": category, "score": score, "comment": comment })
}

impl Drop for OpenAiStandIn {
    fn drop(&mut self) {
        // Not graceful: a hanging request would hold a graceful stop for its whole timeout.
        drop(self.server.stop(false));
    }
}

/// Counts a request as in flight until it is answered or abandoned.
struct InFlight(Shared);

impl InFlight {
    fn enter(state: &Shared) -> Self {
        let mut s = state.lock().unwrap();
        s.in_flight += 1;
        s.peak_in_flight = s.peak_in_flight.max(s.in_flight);
        Self(state.clone())
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        if let Ok(mut s) = self.0.lock() {
            s.in_flight -= 1;
        }
    }
}

async fn chat_completions(req: HttpRequest, body: web::Bytes, state: web::Data<Shared>) -> HttpResponse {
    let authorization = req.headers().get("authorization").and_then(|v| v.to_str().ok()).map(str::to_owned);
    let (behaviour, require_key) = {
        let s = state.lock().unwrap();
        (s.behaviour.clone(), s.require_key)
    };
    if require_key && let Err(refusal) = authorize(authorization.as_deref()) {
        return refusal.into();
    }
    let Ok(request) = serde_json::from_slice::<Value>(&body) else {
        return openai_error(
            StatusCode::BAD_REQUEST,
            "invalid_request_error",
            None,
            None,
            "We could not parse the JSON body of your request. (HINT: This likely means you aren't \
             using your HTTP library correctly. The OpenAI API expects a JSON payload, but what was sent \
             was not valid JSON. If you have trouble figuring out how to fix this, please contact us \
             through our help center at help.openai.com.)",
        )
        .into();
    };
    state.lock().unwrap().requests.push(RecordedChatRequest { authorization, body: request.clone() });
    if let Err(refusal) = check_request(&request) {
        return refusal.into();
    }
    let _in_flight = InFlight::enter(&state);
    let model = request["model"].as_str().unwrap_or_default();
    match behaviour {
        OpenAiBehaviour::Success(assessment) => completion(model, Some(assessment.to_string()), None),
        OpenAiBehaviour::Delayed(delay, assessment) => {
            actix_web::rt::time::sleep(delay).await;
            completion(model, Some(assessment.to_string()), None)
        }
        OpenAiBehaviour::ServerError => openai_error(
            StatusCode::INTERNAL_SERVER_ERROR,
            "server_error",
            None,
            None,
            "The server had an error while processing your request. Sorry about that!",
        )
        .into(),
        OpenAiBehaviour::Hang => std::future::pending().await,
        OpenAiBehaviour::Malformed => completion(
            model,
            Some("Sure! This setup looks great: I'd give it an 8/10 overall.".to_owned()),
            None,
        ),
        OpenAiBehaviour::OutOfRange => {
            let mut assessment = OpenAiStandIn::sample_assessment();
            assessment["categoryRatings"][0]["score"] = json!(11);
            completion(model, Some(assessment.to_string()), None)
        }
        OpenAiBehaviour::Refusal => {
            completion(model, None, Some("I'm sorry, I can't help with that request."))
        }
    }
}

/// A `chat.completion` object with one choice.
fn completion(model: &str, content: Option<String>, refusal: Option<&str>) -> HttpResponse {
    // Roughly four characters a token, like OpenAI's own rule of thumb.
    let completion_tokens = content.as_deref().map_or(8, |c| c.len() / 4 + 1);
    let prompt_tokens = 1105;
    HttpResponse::Ok().insert_header(("x-request-id", random_id("req_"))).json(json!({
        "id": random_id("chatcmpl-"),
        "object": "chat.completion",
        "created": chrono::Utc::now().timestamp(),
        "model": model,
        "choices": [{
            "index": 0,
            "message": { "role": "assistant", "content": content, "refusal": refusal, "annotations": [] },
            "logprobs": null,
            "finish_reason": "stop",
        }],
        "usage": {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
            "prompt_tokens_details": { "cached_tokens": 0, "audio_tokens": 0 },
            "completion_tokens_details": {
                "reasoning_tokens": 0,
                "audio_tokens": 0,
                "accepted_prediction_tokens": 0,
                "rejected_prediction_tokens": 0,
            },
        },
        "service_tier": "default",
        "system_fingerprint": random_id("fp_"),
    }))
}

/// The checks OpenAI makes that a SetupIQ request could fail, with its messages.
fn check_request(request: &Value) -> Result<(), OpenAiFailure> {
    let bad = |param: &str, code: Option<&str>, message: &str| {
        openai_error(StatusCode::BAD_REQUEST, "invalid_request_error", Some(param), code, message)
    };
    if request["model"].as_str().is_none_or(str::is_empty) {
        return Err(bad("model", None, "you must provide a model parameter"));
    }
    let Some(messages) = request["messages"].as_array().filter(|m| !m.is_empty()) else {
        return Err(bad(
            "messages",
            Some("missing_required_parameter"),
            "Missing required parameter: 'messages'.",
        ));
    };
    let mut has_setup = false;
    for (i, message) in messages.iter().enumerate() {
        let role = message["role"].as_str().unwrap_or_default();
        if !matches!(role, "system" | "developer" | "user" | "assistant") {
            let message = format!(
                "Invalid value: '{role}'. Supported values are: 'system', 'assistant', 'user', 'tool', \
                 and 'function'."
            );
            return Err(bad(&format!("messages[{i}].role"), Some("invalid_value"), &message));
        }
        let parts = match &message["content"] {
            Value::String(text) => {
                has_setup |= role == "user" && !text.trim().is_empty();
                continue;
            }
            Value::Array(parts) => parts,
            _ => {
                let message = format!(
                    "Invalid type for 'messages[{i}].content': expected one of a string or array of objects."
                );
                return Err(bad(&format!("messages[{i}].content"), Some("invalid_type"), &message));
            }
        };
        for (j, part) in parts.iter().enumerate() {
            match part["type"].as_str() {
                Some("text") if part["text"].is_string() => {}
                Some("image_url") if is_image_url(part["image_url"]["url"].as_str().unwrap_or_default()) => {}
                Some("image_url") => {
                    return Err(bad(
                        &format!("messages[{i}].content[{j}].image_url.url"),
                        Some("invalid_image_url"),
                        "Invalid image URL: expected a base64-encoded data URL with an image MIME type \
                         (e.g. 'data:image/png;base64,aW1nIGJ5dGVzIGhlcmU='), but got a value without the \
                         'data:' prefix.",
                    ));
                }
                _ => {
                    return Err(bad(
                        &format!("messages[{i}].content[{j}].type"),
                        Some("invalid_value"),
                        "Invalid value. Supported values are: 'text', 'image_url', 'input_audio', 'refusal', \
                         'audio', and 'file'.",
                    ));
                }
            }
            has_setup |= role == "user";
        }
    }
    if !has_setup {
        return Err(bad("messages", None, "SetupIQ stand-in: no user message carries text or an image."));
    }
    let format = &request["response_format"];
    if format["type"] != "json_schema" {
        let message = "SetupIQ stand-in: every request must ask for a json_schema response format.";
        return Err(bad("response_format.type", None, message));
    }
    let name = format["json_schema"]["name"].as_str().unwrap_or_default();
    if name.is_empty() {
        let message = "Missing required parameter: 'response_format.json_schema.name'.";
        return Err(bad("response_format.json_schema.name", Some("missing_required_parameter"), message));
    }
    if format["json_schema"]["strict"] == true {
        strict_schema(&format["json_schema"]["schema"], "()").map_err(|why| {
            let message = format!("Invalid schema for response_format '{name}': In context={why}");
            bad("response_format", Some("invalid_json_schema"), &message)
        })?;
    }
    Ok(())
}

/// A base64 image data URL or a public https URL, the two kinds OpenAI fetches.
fn is_image_url(url: &str) -> bool {
    let data = url.strip_prefix("data:image/").and_then(|rest| rest.split_once(";base64,"));
    data.is_some_and(|(_, encoded)| !encoded.is_empty()) || url.starts_with("https://")
}

/// OpenAI's strict-mode rules: every object closes `additionalProperties` and lists each of
/// its properties in `required`.
fn strict_schema(schema: &Value, context: &str) -> Result<(), String> {
    if !schema.is_object() {
        return Err(format!("{context}, schema must be a JSON Schema of 'type: \"object\"'."));
    }
    if let Some(properties) = schema.get("properties").and_then(Value::as_object) {
        if schema.get("additionalProperties") != Some(&Value::Bool(false)) {
            return Err(format!(
                "{context}, 'additionalProperties' is required to be supplied and to be false."
            ));
        }
        let required: Vec<&str> = schema["required"]
            .as_array()
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        if let Some(missing) = properties.keys().find(|k| !required.contains(&k.as_str())) {
            return Err(format!(
                "{context}, 'required' is required to be supplied and to be an array including every key \
                 in properties. Missing '{missing}'."
            ));
        }
        for (key, property) in properties {
            strict_schema(property, &format!("('properties', '{key}')"))?;
        }
    }
    if let Some(items) = schema.get("items") {
        strict_schema(items, &format!("{context}, 'items'"))?;
    }
    Ok(())
}

/// OpenAI takes the key as a Bearer token; anything else is a 401 in its words.
fn authorize(authorization: Option<&str>) -> Result<(), OpenAiFailure> {
    let Some(key) = authorization.and_then(|h| h.strip_prefix("Bearer ")) else {
        return Err(openai_error(
            StatusCode::UNAUTHORIZED,
            "invalid_request_error",
            None,
            None,
            "You didn't provide an API key. You need to provide your API key in an Authorization header \
             using Bearer auth (i.e. Authorization: Bearer YOUR_KEY), or as the password field (with \
             blank username) if you're accessing the API from your browser and are prompted for a \
             username and password. You can obtain an API key from \
             https://platform.openai.com/account/api-keys.",
        ));
    };
    if key == OpenAiStandIn::API_KEY {
        return Ok(());
    }
    // OpenAI shows the start and the end of a wrong key, never all of it.
    let shown = masked_key(key, 7);
    Err(openai_error(
        StatusCode::UNAUTHORIZED,
        "invalid_request_error",
        None,
        Some("invalid_api_key"),
        &format!(
            "Incorrect API key provided: {shown}. You can find your API key at \
             https://platform.openai.com/account/api-keys."
        ),
    ))
}

async fn unknown_route(req: HttpRequest) -> HttpResponse {
    openai_error(
        StatusCode::NOT_FOUND,
        "invalid_request_error",
        None,
        None,
        &format!("Invalid URL ({} {})", req.method(), req.path()),
    )
    .into()
}

type OpenAiFailure = ErrorAnswer;

/// OpenAI's error body: `{"error": {"message", "type", "param", "code"}}`.
fn openai_error(
    status: StatusCode,
    kind: &str,
    param: Option<&str>,
    code: Option<&str>,
    message: &str,
) -> OpenAiFailure {
    OpenAiFailure {
        status,
        body: json!({ "error": { "message": message, "type": kind, "param": param, "code": code } }),
        request_id_header: "x-request-id",
    }
}
