//! The OpenAI-compatible analyzer over real HTTP: the production `OpenAiAnalyzer` (and its
//! reqwest client) against `OpenAiStandIn`, a loopback server speaking the chat-completions
//! API — what is sent, and what every kind of provider failure becomes.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::Cursor;
use std::sync::Arc;
use std::time::{Duration, Instant};

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use image::{DynamicImage, ImageFormat, Rgb, RgbImage};
use setupiq_analyzer::internals::openai::{OpenAiAnalyzer, SCHEMA_NAME};
use setupiq_analyzer::pipeline::{self, PreparedImage};
use setupiq_analyzer::result::{Assessment, Category, Source};
use setupiq_analyzer::text;
use setupiq_analyzer::{
    AnalysisInput, Analyzer, AnalyzerName, Engine, LocalAnalyzer, OpenAiError, RatingError,
};
use setupiq_core::config::{OpenAiConfig, Secret};
use setupiq_test_utils::{OpenAiBehaviour, OpenAiStandIn};

const MODEL: &str = "gpt-4o-mini";

fn config(provider: &OpenAiStandIn) -> OpenAiConfig {
    OpenAiConfig {
        base_url: Some(provider.base_url()),
        api_key: Some(Secret::new(OpenAiStandIn::API_KEY)),
        model: Some(MODEL.into()),
        timeout_secs: 10,
        max_parallel: 4,
    }
}

fn analyzer(config: &OpenAiConfig) -> OpenAiAnalyzer {
    OpenAiAnalyzer::from_config(config).unwrap()
}

/// The stand-in's sample, as the typed result of rating a description.
fn sample() -> Assessment {
    let mut assessment: Assessment = serde_json::from_value(OpenAiStandIn::sample_assessment()).unwrap();
    assessment.source = Some(Source::Description);
    assessment
}

fn photo() -> Arc<PreparedImage> {
    let image =
        DynamicImage::ImageRgb8(RgbImage::from_fn(64, 48, |x, y| Rgb([x as u8 * 4, y as u8 * 5, 90])));
    let mut png = Vec::new();
    image.write_to(&mut Cursor::new(&mut png), ImageFormat::Png).unwrap();
    Arc::new(pipeline::prepare(&format!("data:image/png;base64,{}", STANDARD.encode(&png))).unwrap())
}

const DESCRIPTION: &str = "Two 27-inch monitors on a dual arm at eye level, a mechanical keyboard, a \
    Herman Miller chair, warm LED strip behind the desk, cables sleeved and run through a tray \
    under the desk.";

fn description() -> AnalysisInput {
    AnalysisInput::Text(DESCRIPTION.into())
}

fn failure(outcome: Result<Assessment, RatingError>) -> String {
    match outcome {
        Err(failure @ RatingError::Failed(_)) => setupiq_core::error::chain(&failure),
        other => panic!("expected a failure, got {other:?}"),
    }
}

#[actix_web::test]
async fn a_photo_is_sent_as_a_data_url_with_the_schema_and_the_answer_is_the_result() {
    let mut sent = sample();
    sent.overall_score = 7.43; // rounded to one decimal on the way in
    let provider = OpenAiStandIn::start(OpenAiBehaviour::Success(serde_json::to_value(&sent).unwrap())).await;
    let image = photo();

    let assessment = analyzer(&config(&provider)).analyze(AnalysisInput::Image(image.clone())).await.unwrap();

    assert_eq!(assessment, Assessment { overall_score: 7.4, source: Some(Source::Photo), ..sent });
    let requests = provider.requests();
    assert_eq!(requests.len(), 1);
    let request = &requests[0];
    assert_eq!(request.authorization.as_deref(), Some(format!("Bearer {}", OpenAiStandIn::API_KEY).as_str()));
    let body = &request.body;
    assert_eq!(body["model"], MODEL);
    assert_eq!(body["temperature"], 0);
    assert_eq!(body["messages"][0]["role"], "system");
    let prompt = body["messages"][0]["content"].as_str().unwrap();
    assert!(prompt.contains("Cable Management") && prompt.contains("from 1 to 10"), "{prompt}");
    let parts = body["messages"][1]["content"].as_array().unwrap();
    assert_eq!(parts[0]["type"], "text");
    assert_eq!(parts[1]["type"], "image_url");
    let expected_url = format!("data:image/jpeg;base64,{}", STANDARD.encode(&image.jpeg));
    assert_eq!(parts[1]["image_url"]["url"], expected_url.as_str());
    let format = &body["response_format"];
    assert_eq!(format["type"], "json_schema");
    assert_eq!(format["json_schema"]["name"], SCHEMA_NAME);
    assert_eq!(format["json_schema"]["strict"], true);
    assert_eq!(format["json_schema"]["schema"], setupiq_analyzer::internals::openai::assessment_schema());
}

#[actix_web::test]
async fn a_description_is_sent_as_text_and_no_key_means_no_authorization_header() {
    let provider = OpenAiStandIn::start(OpenAiBehaviour::Success(OpenAiStandIn::sample_assessment())).await;
    provider.without_auth(); // like Ollama
    let config = OpenAiConfig { api_key: None, ..config(&provider) };

    let assessment = analyzer(&config).analyze(description()).await.unwrap();

    assert_eq!(assessment, sample());
    let request = &provider.requests()[0];
    assert_eq!(request.authorization, None);
    let text = request.body["messages"][1]["content"].as_str().unwrap();
    assert!(text.contains("Herman Miller chair"), "{text}");
}

#[actix_web::test]
async fn a_server_error_fails_with_the_providers_message() {
    let provider = OpenAiStandIn::start(OpenAiBehaviour::ServerError).await;
    let why = failure(analyzer(&config(&provider)).analyze(description()).await);
    assert!(why.contains("500 Internal Server Error"), "{why}");
    assert!(why.contains("The server had an error while processing your request"), "{why}");
}

#[actix_web::test]
async fn a_provider_that_hangs_fails_soon_after_the_timeout() {
    let provider = OpenAiStandIn::start(OpenAiBehaviour::Hang).await;
    let config = OpenAiConfig { timeout_secs: 1, ..config(&provider) };
    let started = Instant::now();
    let why = failure(analyzer(&config).analyze(description()).await);
    let waited = started.elapsed();
    assert!(why.contains("did not answer within 1 s"), "{why}");
    assert!(waited >= Duration::from_secs(1) && waited < Duration::from_secs(3), "{waited:?}");
}

#[actix_web::test]
async fn an_answer_that_is_not_json_fails() {
    let provider = OpenAiStandIn::start(OpenAiBehaviour::Malformed).await;
    let why = failure(analyzer(&config(&provider)).analyze(description()).await);
    assert!(why.contains("does not match the result schema"), "{why}");
}

#[actix_web::test]
async fn an_out_of_range_score_fails_validation_instead_of_being_clamped() {
    let provider = OpenAiStandIn::start(OpenAiBehaviour::OutOfRange).await;
    let why = failure(analyzer(&config(&provider)).analyze(description()).await);
    assert!(why.contains("Cable Management score 11 is outside 1-10"), "{why}");
}

#[actix_web::test]
async fn a_providers_score_is_read_to_the_nearest_half_point() {
    // The prompt asks for half points and the schema allows them.
    let provider = OpenAiStandIn::start(OpenAiBehaviour::Success(OpenAiStandIn::sample_assessment())).await;
    analyzer(&config(&provider)).analyze(description()).await.unwrap();
    let body = &provider.requests()[0].body;
    let prompt = body["messages"][0]["content"].as_str().unwrap();
    assert!(prompt.contains("from 1 to 10 in steps of 0.5"), "{prompt}");
    let score = &body["response_format"]["json_schema"]["schema"]["properties"]["categoryRatings"]["items"]["properties"]
        ["score"];
    assert_eq!(score["type"], serde_json::json!(["number", "null"]));
    assert_eq!(score["multipleOf"], 0.5);

    // 7 and 6.5 are taken as they are; 6.3 is 6.5, 6.2 is 6, 6.75 is 7.
    let mut answer = OpenAiStandIn::sample_assessment();
    for (i, score) in [7.0, 6.5, 6.3, 6.2, 6.75, 10.0].into_iter().enumerate() {
        answer["categoryRatings"][i]["score"] = serde_json::json!(score);
    }
    provider.set_behaviour(OpenAiBehaviour::Success(answer));
    let assessment = analyzer(&config(&provider)).analyze(AnalysisInput::Image(photo())).await.unwrap();
    let shown: Vec<String> =
        Category::ALL.iter().map(|&c| assessment.score_of(c).unwrap().to_string()).collect();
    assert_eq!(shown, ["7", "6.5", "6.5", "6", "7", "10"]);

    // Out of range is still refused, half a point past the end too.
    let mut past = OpenAiStandIn::sample_assessment();
    past["categoryRatings"][0]["score"] = serde_json::json!(10.4);
    provider.set_behaviour(OpenAiBehaviour::Success(past));
    let why = failure(analyzer(&config(&provider)).analyze(description()).await);
    assert!(why.contains("Cable Management score 10.5 is outside 1-10"), "{why}");
}

#[actix_web::test]
async fn a_chair_the_photo_does_not_show_may_be_null_and_nothing_else_may() {
    let no_chair = OpenAiStandIn::sample_assessment_without_chair();
    let provider = OpenAiStandIn::start(OpenAiBehaviour::Success(no_chair.clone())).await;
    let assessment = analyzer(&config(&provider)).analyze(AnalysisInput::Image(photo())).await.unwrap();
    assert_eq!(assessment.score_of(Category::ChairComfort), None);
    assert_eq!(assessment.overall_score, no_chair["overallScore"].as_f64().unwrap());
    assert_eq!(assessment.source, Some(Source::Photo));
    // The desk is in every setup photo: a null there is a broken answer.
    let mut no_desk = no_chair;
    no_desk["categoryRatings"][2]["score"] = serde_json::Value::Null;
    provider.set_behaviour(OpenAiBehaviour::Success(no_desk));
    let why = failure(analyzer(&config(&provider)).analyze(description()).await);
    assert!(why.contains("Desk Cleanliness has no score"), "{why}");
}

#[actix_web::test]
async fn a_model_refusal_is_a_failure() {
    let provider = OpenAiStandIn::start(OpenAiBehaviour::Refusal).await;
    let why = failure(analyzer(&config(&provider)).analyze(description()).await);
    assert!(why.contains("the model refused: I'm sorry"), "{why}");
}

#[test]
fn missing_configuration_is_a_clear_error() {
    let err = OpenAiAnalyzer::from_config(&OpenAiConfig::default()).unwrap_err();
    assert!(matches!(err, OpenAiError::Missing { variable: "SETUPIQ_OPENAI_BASE_URL", .. }));
    assert!(err.to_string().starts_with("SETUPIQ_OPENAI_BASE_URL is not set"), "{err}");

    let no_model = OpenAiConfig {
        base_url: Some("https://api.openai.com/v1".into()),
        timeout_secs: 30,
        max_parallel: 4,
        ..OpenAiConfig::default()
    };
    let err = OpenAiAnalyzer::from_config(&no_model).unwrap_err();
    assert!(err.to_string().starts_with("SETUPIQ_OPENAI_MODEL is not set"), "{err}");

    // No key is fine: local servers such as Ollama take none.
    let local = OpenAiConfig { model: Some("llava".into()), ..no_model };
    assert!(OpenAiAnalyzer::from_config(&local).is_ok());
}

#[actix_web::test]
async fn no_more_calls_than_the_cap_are_in_flight() {
    let provider = OpenAiStandIn::start(OpenAiBehaviour::Delayed(
        Duration::from_millis(150),
        OpenAiStandIn::sample_assessment(),
    ))
    .await;
    let analyzer = analyzer(&OpenAiConfig { max_parallel: 2, ..config(&provider) });

    let outcomes = futures_util::future::join_all((0..6).map(|_| analyzer.analyze(description()))).await;

    assert!(outcomes.iter().all(Result::is_ok), "{outcomes:?}");
    assert_eq!(provider.requests().len(), 6);
    // Exactly 2: never more than the cap, and the cap is not a queue of one.
    assert_eq!(provider.peak_in_flight(), 2);
}

#[actix_web::test]
async fn the_api_key_appears_in_no_error() {
    let secret = "sk-live-do-not-leak-0123456789abcdef";
    let provider = OpenAiStandIn::start(OpenAiBehaviour::ServerError).await;
    let leaky = |base_url: String| OpenAiConfig {
        base_url: Some(base_url),
        api_key: Some(Secret::new(secret)),
        model: Some(MODEL.into()),
        timeout_secs: 5,
        max_parallel: 1,
    };
    let analyzer = analyzer(&leaky(provider.base_url()));
    assert!(!format!("{analyzer:?}").contains(secret));

    let mut messages = Vec::new();
    // A wrong key: OpenAI's 401 quotes it, masked.
    messages.push(failure(analyzer.analyze(description()).await));
    assert!(
        messages[0].contains("401 Unauthorized") && messages[0].contains("Incorrect API key"),
        "{}",
        messages[0]
    );
    // A provider that is not there.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let closed_url = format!("http://{}/v1", closed.local_addr().unwrap());
    drop(closed);
    messages
        .push(failure(OpenAiAnalyzer::from_config(&leaky(closed_url)).unwrap().analyze(description()).await));
    assert!(messages[1].contains("could not connect"), "{}", messages[1]);
    // A key in the URL a provider quotes back (the base URL's path is echoed in its 404).
    let echoing = OpenAiAnalyzer::from_config(&leaky(format!("{}/{secret}", provider.base_url()))).unwrap();
    messages.push(failure(echoing.analyze(description()).await));
    assert!(messages[2].contains("[redacted]"), "{}", messages[2]);

    for message in &messages {
        assert!(!message.contains(secret), "{message}");
    }
}

/// The engine with a provider in front of the embedded analyzer; descriptions need no models.
fn engine(provider: &OpenAiStandIn) -> Engine {
    let models = concat!(env!("CARGO_MANIFEST_DIR"), "/../../models");
    Engine::with_remote(Arc::new(LocalAnalyzer::new(models)), Arc::new(analyzer(&config(provider))))
}

#[actix_web::test]
async fn the_engine_says_the_provider_produced_the_result() {
    let provider = OpenAiStandIn::start(OpenAiBehaviour::Success(OpenAiStandIn::sample_assessment())).await;
    let analysis = engine(&provider).analyze(description()).await.unwrap();
    assert_eq!(analysis.analyzer, AnalyzerName::Openai);
    assert_eq!(analysis.assessment, sample());
}

#[actix_web::test]
async fn when_the_provider_fails_the_embedded_analyzer_answers() {
    let provider = OpenAiStandIn::start(OpenAiBehaviour::ServerError).await;
    let outcome = engine(&provider).analyze(description()).await;
    assert_eq!(provider.requests().len(), 1, "the provider was asked first");
    // Whatever the embedded text rubric makes of the description is the answer: its result
    // (said to be the embedded analyzer's), or its refusal — never the provider's failure.
    match (outcome, text::assess(DESCRIPTION)) {
        (Ok(analysis), Ok(local)) => {
            assert_eq!(analysis.analyzer, AnalyzerName::Local);
            analysis.assessment.validate().unwrap();
            assert_eq!(analysis.assessment, local);
        }
        (Err(RatingError::Refused(refusal)), Err(local)) => assert_eq!(refusal, local),
        (outcome, local) => panic!("the engine answered {outcome:?}; the embedded rubric says {local:?}"),
    }
}
