//! `setupiq`: see `setupiq --help`.

use std::path::PathBuf;
use std::process::ExitCode;

use base64::Engine as _;

use actix_web::HttpServer;
use anyhow::Context;
use clap::Parser;
use setupiq_core::Config;
use setupiq_gateway::cli::{AdminCommand, Cli, Command};
use setupiq_gateway::{AppState, api_doc, build_app, telemetry};

// glibc's malloc gives each thread an arena of its own and rarely returns memory: with the
// analysis threads (pipeline, two detector views, the safety classifier) the server's peak
// RSS was 705 MiB. jemalloc with one arena on transparent huge pages (`.cargo/config.toml`)
// keeps it under 250 MiB and is faster (`make bench`). It also replaces malloc for the whole
// process (`unprefixed_malloc_on_supported_platforms`), so that ONNX Runtime's own
// allocations (C++, in the library the models run on) share that one arena instead of
// glibc's: the server's peak RSS went from 379 to 232 MiB with it (with the models loaded
// one after the other, `LocalModels::load`).
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let config = match Config::from_env() {
        Ok(config) => config,
        Err(e) => {
            eprintln!("setupiq: configuration error: {e}");
            return ExitCode::from(2);
        }
    };
    telemetry::init(config.log_json);
    match run(cli.command.unwrap_or(Command::Serve), config) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("setupiq: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn run(command: Command, config: Config) -> anyhow::Result<()> {
    match command {
        Command::Serve => serve(config),
        Command::Migrate => {
            let db = setupiq_db::Db::connect(config.database_url.expose())?;
            let applied = db.migrate()?;
            println!("{applied} migration(s) applied");
            Ok(())
        }
        Command::Openapi { output, check } => {
            let json = format!("{}\n", api_doc().to_pretty_json()?);
            if check {
                let current = std::fs::read_to_string(&output).unwrap_or_default();
                anyhow::ensure!(
                    current == json,
                    "{} is out of date: run `setupiq openapi`",
                    output.display()
                );
                println!("{} is up to date", output.display());
            } else {
                if let Some(dir) = output.parent().filter(|d| !d.as_os_str().is_empty()) {
                    std::fs::create_dir_all(dir)?;
                }
                std::fs::write(&output, json)?;
                println!("wrote {}", output.display());
            }
            Ok(())
        }
        Command::Analyze { photo, text, json } => analyze(config, photo, text, json),
        Command::Admin { command: AdminCommand::Grant { email } } => {
            let state = AppState::from_config(config)?;
            let mut conn = state.db.conn()?;
            let account = setupiq_auth::service::accounts::grant_admin(&mut conn, &email, state.clock.now())
                .with_context(|| format!("cannot grant admin to {email}"))?;
            println!("{} (@{}) is now an admin", account.email, account.username);
            Ok(())
        }
    }
}

#[actix_web::main]
async fn analyze(
    config: Config,
    photo: Option<PathBuf>,
    text: Option<String>,
    json: bool,
) -> anyhow::Result<()> {
    let input = match (photo, text) {
        (Some(path), _) => {
            let bytes = std::fs::read(&path).with_context(|| format!("cannot read {}", path.display()))?;
            let content_type = setupiq_core::images::sniff(&bytes).map_or("image/jpeg", |k| k.content_type());
            let data_url = format!(
                "data:{content_type};base64,{}",
                base64::engine::general_purpose::STANDARD.encode(bytes)
            );
            let prepared = setupiq_analyzer::pipeline::prepare(&data_url)?;
            setupiq_analyzer::AnalysisInput::Image(std::sync::Arc::new(prepared))
        }
        (None, Some(text)) => setupiq_analyzer::AnalysisInput::Text(text.into()),
        (None, None) => anyhow::bail!("give a photo or --text DESCRIPTION"),
    };
    let engine = setupiq_analyzer::Engine::from_config(&config)?;
    let analysis = engine.analyze(input).await?;
    if json {
        println!("{}", serde_json::to_string_pretty(&analysis.assessment)?);
    } else {
        print!("{}", setupiq_gateway::report::plain_text(&analysis));
    }
    Ok(())
}

#[actix_web::main]
async fn serve(config: Config) -> anyhow::Result<()> {
    let state = AppState::from_config(config.clone())?;
    let started = std::time::Instant::now();
    state
        .engine
        .local_analyzer()
        .preload()
        .context("cannot load the analyzer's models (run `make models`)")?;
    tracing::info!(ms = started.elapsed().as_millis() as u64, "analyzer models loaded");
    let flusher = spawn_visit_flusher(state.db.clone(), state.pages.clone());
    let pro_settler = spawn_pro_settler(&state);
    let link_checker = spawn_rigpage_link_checker(&state);
    let digests = spawn_digest_sender(&state);
    let media_sweeper = setupiq_gateway::media_sweep::spawn(&state);
    let (db, pages) = (state.db.clone(), state.pages.clone());
    let server = HttpServer::new(move || build_app(state.clone()))
        // An idle connection stays open 75 s (nginx's default), longer than the idle timeout
        // of the proxies and clients that reuse it (60 s is usual): otherwise the server closes
        // it at the moment a client sends on it, and that request fails with a reset.
        .keep_alive(std::time::Duration::from_secs(75))
        .bind(&config.bind)
        .with_context(|| format!("cannot listen on {}", config.bind))?
        // SIGTERM, SIGINT: stop accepting, let requests in flight finish (up to 10 s).
        .shutdown_timeout(10);
    for addr in server.addrs() {
        tracing::info!("SetupIQ is listening on http://{addr} (public URL {})", config.public_url);
    }
    server.run().await?;
    flusher.abort();
    pro_settler.abort();
    link_checker.abort();
    digests.abort();
    media_sweeper.abort();
    // The last RigPage views and clicks gathered in memory.
    if let Err(e) = db.run(move |conn| pages.visits.flush(conn)).await {
        tracing::warn!(error = %e, "RigPage visits could not be written at shutdown");
    }
    tracing::info!("SetupIQ stopped");
    Ok(())
}

/// Once a minute, ends or renews the Pro subscriptions whose paid period is over, so Pro
/// ends on time for members who do not look at their membership (who do are settled then).
fn spawn_pro_settler(state: &AppState) -> tokio::task::JoinHandle<()> {
    let (ctx, provider) = (state.ctx(), state.payments.clone());
    tokio::spawn(async move {
        let mut every = tokio::time::interval(std::time::Duration::from_secs(60));
        loop {
            every.tick().await;
            if let Err(e) = setupiq_credits::service::pro::settle(&ctx, &provider, None).await {
                tracing::warn!(error = %e, "Pro subscriptions could not be settled; trying again in a minute");
            }
        }
    })
}

/// Every ten minutes, sends the daily e-mail digests that are due.
fn spawn_digest_sender(state: &AppState) -> tokio::task::JoinHandle<()> {
    let ctx = state.ctx();
    tokio::spawn(async move {
        let mut every = tokio::time::interval(std::time::Duration::from_secs(600));
        loop {
            every.tick().await;
            match setupiq_community::service::digest::send_due(&ctx).await {
                Ok(round) if round.sent + round.failed > 0 => {
                    tracing::info!(sent = round.sent, failed = round.failed, "daily digests sent");
                }
                Ok(_) => {}
                Err(e) => tracing::warn!(error = %e, "daily digests could not be sent; trying again later"),
            }
        }
    })
}

/// Every two minutes, checks a small batch of the links on live RigPages and of the gear
/// links on live posts (each about once a day) and tells owners of the links that went dead.
fn spawn_rigpage_link_checker(state: &AppState) -> tokio::task::JoinHandle<()> {
    let (db, clock, checker) = (state.db.clone(), state.clock.clone(), state.link_checker.clone());
    // On the main thread's local set: the checker's stream of borrowed futures is not `Send`.
    actix_web::rt::spawn(async move {
        let mut every = tokio::time::interval(std::time::Duration::from_secs(120));
        loop {
            every.tick().await;
            let batch = setupiq_admin::service::rigpage_links::BATCH;
            match setupiq_admin::service::rigpage_links::check_due(&db, &checker, clock.now(), batch).await {
                Ok(done) if done.unreachable => {
                    tracing::warn!(
                        checked = done.checked,
                        "RigPage and gear links could not be reached from this server; nothing recorded"
                    );
                }
                Ok(done) if done.checked > 0 => {
                    tracing::info!(
                        checked = done.checked,
                        went_dead = done.went_dead,
                        "RigPage and gear links checked"
                    );
                }
                Ok(_) => {}
                Err(e) => {
                    tracing::warn!(error = %e, "RigPage and gear links could not be checked; trying again later")
                }
            }
        }
    })
}

/// Writes the RigPage views and clicks gathered in memory every few seconds.
fn spawn_visit_flusher(
    db: setupiq_db::Db,
    pages: actix_web::web::Data<setupiq_rigpage::PublicPages>,
) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let mut every = tokio::time::interval(std::time::Duration::from_secs(10));
        loop {
            every.tick().await;
            let pages = pages.clone();
            if let Err(e) = db.run(move |conn| pages.visits.flush(conn)).await {
                tracing::warn!(error = %e, "RigPage visits could not be written; kept for the next try");
            }
        }
    })
}
