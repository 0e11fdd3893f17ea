//! Assembly: the shared state every handler may extract, the `App` with its middleware
//! and routes, and the OpenAPI document collected from the same routes.

use std::sync::Arc;

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceFactory, ServiceRequest, ServiceResponse};
use actix_web::middleware::{Compress, from_fn};
use actix_web::{App, Error, web};
use anyhow::Context;
use setupiq_admin::service::checker::CheckerConfig;
use setupiq_analyzer::Engine;
use setupiq_auth::Passwords;
use setupiq_community::service::feed::Feed;
use setupiq_core::feed_changes::FeedChanges;
use setupiq_core::mail::Mailer;
use setupiq_core::media::{MediaStore, S3MediaStore};
use setupiq_core::upload::{ImageQueue, PixelBudget, Uploads};
use setupiq_core::{Config, SharedClock, clock, error};
use setupiq_credits::PaymentProvider;
use setupiq_db::hooks::{AccountData, AnalysisDependents, Arrivals, Departures, OwnedMedia};
use setupiq_db::{AppCtx, Db, Hooks};
use setupiq_rigpage::PublicPages;
use utoipa::OpenApi;
use utoipa_actix_web::AppExt;
use utoipa_actix_web::service_config::ServiceConfig;
use utoipa_swagger_ui::SwaggerUi;

use crate::allowed_methods::AllowedMethods;
use crate::{health, middleware, openapi, site, spa};

/// Largest JSON body accepted by default (a profile picture is at most 700000 characters).
const JSON_LIMIT: usize = 1024 * 1024;

#[derive(OpenApi)]
#[openapi(
    info(
        title = "SetupIQ API",
        description = "Rate gaming and desk setups: accounts, analysis, credits, community, RigPage and admin.\n\n\
            Errors have the body `{\"error\": message, \"code\": code, \"issues\": [{\"path\", \"message\"}]}`. \
            State-changing calls must be JSON and, when they carry an `Origin`, come from the site's own origin.",
        license(name = "MIT")
    ),
    tags(
        (name = "auth", description = "Accounts, sessions, password reset and profile"),
        (name = "contact", description = "The contact form: messages to the support team"),
        (name = "analysis", description = "Setup analysis: the SetupIQ Score, category scores, cable inventory, suggestions and history"),
        (name = "affiliate", description = "Product recommendations and click tracking on affiliate links"),
        (name = "credits", description = "Credit packs, balance history, deductions and rewarded ads"),
        (name = "payments", description = "Card purchases: Stripe PaymentIntents, or the offline test mode"),
        (name = "community", description = "Published setups, votes, reports, the leaderboard, My Posts and public profiles"),
        (name = "admin", description = "Admins only: affiliate analytics, link health, moderation, accounts and the admin log"),
        (name = "rigpage", description = "RigPage: the creator's link-in-bio page, its editor, uploads, preview and analytics"),
        (name = "site", description = "This deployment: its operator's details, ads and analyzer"),
        (name = "health", description = "Liveness of the service and its database"),
    ),
    // Enums that only query parameters name (a body's types are collected with it).
    components(schemas(
        setupiq_community::service::feed::Period,
        setupiq_community::service::feed::Sort,
        setupiq_admin::service::analytics::Period,
        setupiq_admin::service::analytics::CategorySort,
    )),
    modifiers(&SessionCookie)
)]
struct ApiDoc;

/// Declares the session cookie as the `session` security scheme the signed-in endpoints name.
struct SessionCookie;

impl utoipa::Modify for SessionCookie {
    fn modify(&self, doc: &mut utoipa::openapi::OpenApi) {
        setupiq_core::openapi::add_session_scheme(doc, setupiq_auth::extract::COOKIE_NAME);
    }
}

/// Everything the handlers share. Built once at start-up (or per test).
#[derive(Clone)]
pub struct AppState {
    /// Shared with every [`AppCtx`] made from this state (never copied).
    pub config: Arc<Config>,
    pub db: Db,
    pub clock: SharedClock,
    pub passwords: Passwords,
    pub mailer: Mailer,
    pub media: MediaStore,
    pub payments: PaymentProvider,
    pub engine: Engine,
    /// The one path every image upload takes (its queue is the image threads').
    pub uploads: Uploads,
    /// Request bodies being received, against one budget (memory under slow uploads).
    pub bodies: web::Data<middleware::BodyBudget>,
    /// Rendered public RigPages and visitors' counts not yet written (shared by every worker).
    pub pages: web::Data<PublicPages>,
    /// The community feed, which keeps pages, counts and rankings a few seconds (shared by
    /// every worker), and the changes that make it forget them (recorded by every crate
    /// that adds, changes or removes a post).
    pub feed: web::Data<Feed>,
    pub feed_changes: web::Data<FeedChanges>,
    /// How link verification runs visit the catalogue's links (tests allow loopback).
    pub link_checker: web::Data<CheckerConfig>,
    /// What each crate does when an account or an analysis arrives, is exported or goes.
    pub hooks: Arc<Hooks>,
}

impl AppState {
    /// The shared handles every flow takes ([`AppCtx`]).
    pub fn ctx(&self) -> AppCtx {
        AppCtx {
            db: self.db.clone(),
            clock: self.clock.clone(),
            config: self.config.clone(),
            mailer: self.mailer.clone(),
            media: self.media.clone(),
            uploads: self.uploads.clone(),
            changes: self.feed_changes.get_ref().clone(),
            hooks: self.hooks.clone(),
        }
    }

    /// Connects to the database, applies migrations and prepares mail and media.
    pub fn from_config(config: Config) -> anyhow::Result<Self> {
        let db = Db::connect(config.database_url.expose()).context("cannot open the database")?;
        let applied = db.migrate().context("cannot migrate the database")?;
        if applied > 0 {
            tracing::info!(applied, "database migrations applied");
        }
        Self::with_db(config, db, clock::system())
    }

    /// The state over an existing pool and clock (tests inject both).
    pub fn with_db(config: Config, db: Db, clock: SharedClock) -> anyhow::Result<Self> {
        let mailer = Mailer::from_config(&config)?;
        let media = match &config.object_store {
            None => MediaStore::local(config.media_dir()),
            Some(settings) => MediaStore::S3(S3MediaStore::new(settings)?),
        };
        if !config.admin_emails.is_empty() {
            let mut conn = db.conn()?;
            let promoted = setupiq_auth::service::accounts::promote_admins(
                &mut conn,
                &config.admin_emails,
                clock.now(),
            )?;
            if promoted > 0 {
                tracing::info!(promoted, "accounts promoted to admin from SETUPIQ_ADMIN_EMAILS");
            }
        }
        let payments = PaymentProvider::from_config(&config)?;
        if payments.is_test_mode() {
            tracing::info!("no STRIPE_SECRET_KEY: payments run in test mode");
        }
        let engine = Engine::from_config(&config)?;
        let local = engine.local_analyzer().clone();
        let uploads = Uploads::new(ImageQueue::for_threads(local.threads()), local, media.clone())
            .with_pixel_budget(PixelBudget::new(config.pixel_budget_mp));
        let bodies = web::Data::new(middleware::BodyBudget::new(config.body_budget_bytes));
        let feed_changes = FeedChanges::default();
        let feed = web::Data::new(Feed::new(db.clone(), clock.clone(), feed_changes.clone()));
        Ok(Self {
            config: Arc::new(config),
            db,
            clock,
            passwords: Passwords::for_this_machine(),
            mailer,
            media,
            payments: payments.clone(),
            engine,
            uploads,
            bodies,
            pages: web::Data::new(PublicPages::default()),
            feed,
            feed_changes: web::Data::new(feed_changes),
            link_checker: web::Data::new(CheckerConfig::default()),
            hooks: Arc::new(hooks(&payments)),
        })
    }
}

/// Registers every API endpoint; used for the running app and for the OpenAPI document.
///
/// Each domain gets its own scope (`/_api/auth`, …). Never add a bare `/_api` scope: a
/// scope captures every path under its prefix, hiding the API reference and the JSON 404.
/// A domain with few endpoints under different prefixes (contact: `/_api/contact` and
/// `/_api/admin/contact-messages`) carries full paths instead.
fn api(cfg: &mut ServiceConfig) {
    cfg.service(utoipa_actix_web::scope("/_api/auth").configure(setupiq_auth::http::configure))
        .service(utoipa_actix_web::scope("/_api/account").configure(setupiq_auth::http::configure_account))
        .configure(setupiq_contact::http::configure)
        .configure(setupiq_credits::http::configure)
        .configure(setupiq_affiliate::http::configure)
        .configure(setupiq_analysis::http::configure)
        .configure(setupiq_rigpage::http::configure)
        .configure(setupiq_community::http::configure)
        .configure(setupiq_admin::http::configure)
        .service(site::site)
        .service(health::health)
        .service(health::ready);
}

/// The OpenAPI document of every endpoint (`setupiq openapi` writes it to a file).
pub fn api_doc() -> utoipa::openapi::OpenApi {
    let mut doc = App::new().into_utoipa_app().openapi(ApiDoc::openapi()).configure(api).split_for_parts().1;
    openapi::merge_inline_flattened(&mut doc);
    openapi::add_common_answers(&mut doc);
    openapi::state_plain_text(&mut doc);
    doc
}

/// What each crate does when an account or an analysis arrives, is exported or goes: every
/// crate's function listed once, in the [`Hooks`] every [`AppCtx`] carries.
fn hooks(payments: &PaymentProvider) -> Hooks {
    Hooks {
        // The media each crate keeps for a user, deleted with the account.
        owned_media: OwnedMedia(vec![
            setupiq_analysis::service::media_of_user,
            setupiq_rigpage::service::config::on_account_deleted,
            setupiq_community::service::setups::on_account_deleted,
        ]),
        departures: departures(payments),
        // What each crate keeps for a user, in their data export ("Download my data").
        account_data: AccountData(vec![
            setupiq_credits::service::balance::export_history,
            setupiq_credits::service::receipts::export_payments,
            setupiq_credits::service::pro::export_subscriptions,
            setupiq_contact::service::export_messages,
            setupiq_affiliate::service::export_clicks,
            setupiq_analysis::service::export_analyses,
            setupiq_rigpage::service::config::export_page,
            setupiq_community::service::export::posts,
            setupiq_community::service::export::votes,
            setupiq_community::service::export::reports,
            setupiq_community::service::export::comment_reports,
            setupiq_community::service::export::comments,
            setupiq_community::service::export::notifications,
        ]),
        // What other crates keep for an analysis, deleted with it.
        analysis_dependents: AnalysisDependents(vec![
            setupiq_community::service::setups::on_analysis_deleted,
        ]),
        // What other crates hand over to an account when a browser signs up or signs in to
        // it: the free result its visitor made just before.
        arrivals: Arrivals(vec![setupiq_analysis::http::claim_on_arrival()]),
    }
}

/// What must be settled outside before an account goes: its Stripe subscription ends.
fn departures(payments: &PaymentProvider) -> Departures {
    let payments = payments.clone();
    Departures(vec![Arc::new(move |ctx, user_id| {
        let payments = payments.clone();
        Box::pin(async move {
            setupiq_credits::service::pro::end_before_deletion(&ctx, &payments, user_id)
                .await
                .map_err(setupiq_core::error::Cause::from)
        })
    })])
}

/// The whole application: API, API reference, media, the single-page app, and the
/// middleware around them.
pub fn build_app(
    state: AppState,
) -> App<
    impl ServiceFactory<
        ServiceRequest,
        Config = (),
        Response = ServiceResponse<impl MessageBody>,
        Error = Error,
        InitError = (),
    >,
> {
    // The metrics recorder exists before the first request is counted.
    crate::metrics::handle();
    // The RigPage's "My gear" block reads the community's gear (rigpage sits below it).
    setupiq_rigpage::service::public::register_gear_source(setupiq_community::service::gear::page_gear);
    let frontend = spa::Frontend { dir: state.config.frontend_dir.clone() };
    let ctx = state.ctx();
    let (app, mut openapi) = App::new()
        .into_utoipa_app()
        .openapi(ApiDoc::openapi())
        .app_data(web::JsonConfig::default().limit(JSON_LIMIT).error_handler(error::json_error_handler))
        .app_data(web::QueryConfig::default().error_handler(error::query_error_handler))
        .app_data(web::PathConfig::default().error_handler(error::path_error_handler))
        .app_data(web::Data::from(ctx.config.clone()))
        .app_data(web::Data::new(ctx))
        .app_data(web::Data::new(state.db))
        .app_data(web::Data::new(state.clock))
        .app_data(web::Data::new(state.passwords))
        .app_data(web::Data::new(state.mailer))
        .app_data(web::Data::new(state.media))
        .app_data(web::Data::new(state.payments))
        .app_data(web::Data::new(state.engine))
        .app_data(web::Data::new(state.uploads))
        .app_data(state.bodies)
        .app_data(state.pages)
        .app_data(state.feed)
        .app_data(state.feed_changes)
        .app_data(state.link_checker)
        .app_data(web::Data::new(frontend))
        .configure(api)
        .split_for_parts();
    openapi::merge_inline_flattened(&mut openapi);
    openapi::add_common_answers(&mut openapi);
    openapi::state_plain_text(&mut openapi);
    let allowed_methods = web::Data::new(AllowedMethods::from_openapi(&openapi));
    app.app_data(allowed_methods)
        .service(SwaggerUi::new("/_api/docs/{_:.*}").url("/_api/openapi.json", openapi))
        .service(web::redirect("/_api/docs", "/_api/docs/"))
        .service(spa::media)
        .service(crate::metrics::scrape)
        .service(spa::user_profile_page)
        .service(spa::setup_page)
        .configure(setupiq_rigpage::http::configure_pages)
        .configure(setupiq_analysis::http::configure_pages)
        .configure(setupiq_community::http::configure_pages)
        .default_service(web::to(spa::fallback))
        .wrap(from_fn(middleware::csrf))
        .wrap(from_fn(middleware::refuse_trace))
        .wrap(from_fn(middleware::body_deadline))
        .wrap(from_fn(middleware::body_budget))
        .wrap(Compress::default())
        .wrap(from_fn(middleware::security_headers))
        .wrap(from_fn(middleware::log_requests))
        .wrap(from_fn(crate::metrics::record_requests))
}
