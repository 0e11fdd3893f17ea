//! The configuration of DESIGN.md §7, read once at start-up from the environment (a `.env`
//! file is honoured) into a typed struct that is passed to whoever needs it.

use std::fmt;
use std::path::PathBuf;

use url::Url;

/// A secret value (API key, SMTP password): never printed, not even by `{:?}`.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    pub fn new(value: impl Into<String>) -> Self {
        Self(value.into())
    }

    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Secret([redacted])")
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AnalyzerKind {
    Local,
    OpenAi,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DatabaseBackend {
    Sqlite,
    Postgres,
}

#[derive(Debug, Clone, Default)]
pub struct OpenAiConfig {
    pub base_url: Option<String>,
    pub api_key: Option<Secret>,
    pub model: Option<String>,
    /// `SETUPIQ_OPENAI_TIMEOUT_SECS`: the whole provider call, default 30.
    pub timeout_secs: u64,
    /// `SETUPIQ_OPENAI_MAX_PARALLEL`: provider calls in flight at once, default 4.
    pub max_parallel: usize,
}

/// Sign-ups per client address (an IPv6 client counted by its /64), so that accounts and
/// their signup bonus cannot be farmed (DESIGN.md §5, "sign-up abuse").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SignupLimits {
    /// `SETUPIQ_SIGNUPS_PER_HOUR_PER_IP`: new accounts an address may create in an hour (10).
    pub per_hour: u32,
    /// `SETUPIQ_SIGNUP_BONUS_PER_DAY_PER_IP`: new accounts of an address that get the signup
    /// bonus in 24 hours (5); later ones start at 0 credits.
    pub bonus_per_day: u32,
}

impl Default for SignupLimits {
    fn default() -> Self {
        Self { per_hour: 10, bonus_per_day: 5 }
    }
}

#[derive(Debug, Clone, Default)]
pub struct StripeConfig {
    pub secret_key: Option<Secret>,
    pub publishable_key: Option<String>,
    pub webhook_secret: Option<Secret>,
    pub api_base: Option<String>,
    /// `STRIPE_PRO_PRODUCT`: the Stripe product (`prod_…`) Pro subscriptions are sold as,
    /// at the prices of [`ProPrices`]. Without it, a server with a Stripe key sells no Pro.
    pub pro_product: Option<String>,
}

/// Words a comment may not hold (`SETUPIQ_COMMENT_FILTER`, like Lemmy's `slur_filter_regex`):
/// a regular expression matched without regard to case.
#[derive(Debug, Clone)]
pub struct WordFilter(regex_lite::Regex);

impl WordFilter {
    pub fn new(pattern: &str) -> Result<Self, String> {
        regex_lite::RegexBuilder::new(pattern)
            .case_insensitive(true)
            .build()
            .map(Self)
            .map_err(|e| e.to_string())
    }

    /// Whether `text` holds a filtered word.
    pub fn refuses(&self, text: &str) -> bool {
        self.0.is_match(text)
    }
}

#[derive(Debug, Clone)]
pub struct Config {
    /// `SETUPIQ_BIND`: the listen address.
    pub bind: String,
    /// `SETUPIQ_PUBLIC_URL`: the origin users reach us at (e-mail links, CSRF, cookies).
    pub public_url: Url,
    /// `SETUPIQ_DATA_DIR`: embedded database, media, outbox, model files.
    pub data_dir: PathBuf,
    /// `SETUPIQ_MODELS_DIR`: the analyzer's model files (default `models`).
    pub models_dir: PathBuf,
    /// `SETUPIQ_DATABASE_URL`: `sqlite://…` or `postgres://…`.
    pub database_url: Secret,
    pub analyzer: AnalyzerKind,
    pub openai: OpenAiConfig,
    pub stripe: StripeConfig,
    /// `SETUPIQ_SMTP_URL`: without it, e-mail goes to `$SETUPIQ_DATA_DIR/outbox/`.
    pub smtp_url: Option<Secret>,
    pub mail_from: String,
    /// `SETUPIQ_SUPPORT_EMAIL`: where contact-form messages go (default `support@setupiq.local`).
    pub support_email: String,
    /// `SETUPIQ_BUSINESS_EMAIL`: the address the Contact page gives for partnerships, sponsorships
    /// and press (default `business@setupiq.local`).
    pub business_email: String,
    /// `SETUPIQ_OBJECT_STORE_URL` with the `AWS_*` variables: an S3-compatible bucket for
    /// media; without it, media live in `$SETUPIQ_DATA_DIR/media`.
    pub object_store: Option<crate::media::S3Settings>,
    /// `SETUPIQ_ADMIN_EMAILS`: lower-cased e-mails that get the admin role.
    pub admin_emails: Vec<String>,
    /// `SETUPIQ_FRONTEND_DIR`: the built single-page app (default `frontend/dist`).
    pub frontend_dir: PathBuf,
    /// `SETUPIQ_LOG_FORMAT=json`.
    pub log_json: bool,
    pub signups: SignupLimits,
    /// `SETUPIQ_TRUSTED_PROXIES`: CIDRs of the reverse proxies whose `Forwarded` /
    /// `X-Forwarded-For` name the client ([`crate::forwarded`]); empty: the TCP peer is.
    pub trusted_proxies: Vec<ipnet::IpNet>,
    /// `SETUPIQ_BODY_TIMEOUT_SECS`: how long a client has to send a request's whole body
    /// (408 after it), so a slow sender cannot keep a request open.
    pub body_timeout: std::time::Duration,
    /// `SETUPIQ_BODY_BUDGET_MB` (default 160): the request bodies being received at once,
    /// in all; a body that does not fit is answered 503 with `Retry-After` instead of being
    /// buffered, so slow uploaders cannot fill the memory.
    pub body_budget_bytes: usize,
    /// `SETUPIQ_PIXEL_BUDGET_MP` (default [`crate::upload::DEFAULT_PIXEL_BUDGET_MP`]): the
    /// megapixels decoded at once, in all; an upload beyond it waits for pixels to be freed
    /// ([`crate::upload::PixelBudget`]), so big pictures arriving together cannot fill the
    /// memory.
    pub pixel_budget_mp: u32,
    /// `SETUPIQ_METRICS_TOKEN`: serves Prometheus metrics at `/metrics` to a scraper that
    /// sends it as a bearer token; unset, `/metrics` does not exist.
    pub metrics_token: Option<Secret>,
    /// `SETUPIQ_AFFILIATE_CONVERSION_BP`: the share of affiliate clicks assumed to become a
    /// sale, in basis points (500 = 5 %), for the admin's estimated revenue.
    pub affiliate_conversion_bp: u32,
    pub legal: LegalInfo,
    /// `SETUPIQ_ADSENSE_CLIENT` (`ca-pub-…`): the ad slots show ads; without it there are none.
    pub adsense_client: Option<String>,
    /// What Pro costs, in cents of the packs' currency.
    pub pro_prices: ProPrices,
    /// `SETUPIQ_COMMENT_FILTER`: a comment matching it is refused; none: no filter.
    pub comment_filter: Option<WordFilter>,
    /// `SETUPIQ_MEDIA_SWEEP_GRACE_MINUTES` (default 60): how old an object no row names
    /// must be before the media sweep removes it ([`crate::media_sweep`]).
    pub media_sweep_grace: chrono::Duration,
    /// `SETUPIQ_VISITOR_RESULT_MINUTES` (default 60): how long a visitor's free result is
    /// kept for the browser that made it, to be saved to the account it signs up or signs
    /// in to; unclaimed, it then goes with its photos.
    pub visitor_result_keep: chrono::Duration,
}

/// The default of `SETUPIQ_VISITOR_RESULT_MINUTES`: a sign-up right after a free result
/// takes minutes, not hours.
pub const DEFAULT_VISITOR_RESULT_KEEP: chrono::Duration = chrono::Duration::minutes(60);

/// `SETUPIQ_PRO_MONTHLY_CENTS` (default 499) and `SETUPIQ_PRO_YEARLY_CENTS` (default 3999):
/// the prices of the two Pro plans.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProPrices {
    pub monthly_cents: i64,
    pub yearly_cents: i64,
}

impl Default for ProPrices {
    fn default() -> Self {
        Self { monthly_cents: 499, yearly_cents: 3999 }
    }
}

/// `SETUPIQ_LEGAL_*`: who runs this deployment, for the legal pages and the Impressum
/// (`GET /_api/site` answers it as it is). A value left unset is null there and shown as not
/// provided yet, never invented.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = LegalDto)]
pub struct LegalInfo {
    /// `SETUPIQ_LEGAL_OPERATOR`: the company or person, with its legal form.
    pub operator: Option<String>,
    /// `SETUPIQ_LEGAL_ADDRESS` (lines separated by `;`): the postal address, a line per entry.
    pub address: Vec<String>,
    /// `SETUPIQ_LEGAL_CONTACT_EMAIL`.
    pub contact_email: Option<String>,
    /// `SETUPIQ_LEGAL_PHONE`.
    pub phone: Option<String>,
    /// `SETUPIQ_LEGAL_REPRESENTATIVE`: who represents the operator (managing director).
    pub representative: Option<String>,
    /// `SETUPIQ_LEGAL_REGISTER`: the commercial register entry (court and number).
    pub register: Option<String>,
    /// `SETUPIQ_LEGAL_VAT_ID`.
    pub vat_id: Option<String>,
    /// `SETUPIQ_LEGAL_POLICY_DATE` (YYYY-MM-DD): when the terms and the privacy policy last changed.
    #[schema(value_type = Option<String>, format = Date, example = "2026-03-14")]
    pub policy_date: Option<chrono::NaiveDate>,
}

impl LegalInfo {
    fn from_lookup(var: &impl Fn(&str) -> Option<String>) -> Result<Self, ConfigError> {
        let policy_date = var("SETUPIQ_LEGAL_POLICY_DATE")
            .map(|raw| {
                chrono::NaiveDate::parse_from_str(&raw, "%Y-%m-%d")
                    .map_err(|_| invalid("SETUPIQ_LEGAL_POLICY_DATE", "expected a date as YYYY-MM-DD"))
            })
            .transpose()?;
        Ok(Self {
            operator: var("SETUPIQ_LEGAL_OPERATOR"),
            address: var("SETUPIQ_LEGAL_ADDRESS")
                .map(|raw| {
                    raw.split(';').map(str::trim).filter(|l| !l.is_empty()).map(str::to_owned).collect()
                })
                .unwrap_or_default(),
            contact_email: var("SETUPIQ_LEGAL_CONTACT_EMAIL"),
            phone: var("SETUPIQ_LEGAL_PHONE"),
            representative: var("SETUPIQ_LEGAL_REPRESENTATIVE"),
            register: var("SETUPIQ_LEGAL_REGISTER"),
            vat_id: var("SETUPIQ_LEGAL_VAT_ID"),
            policy_date,
        })
    }
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ConfigError {
    #[error("{name} is not valid: {reason}")]
    Invalid { name: &'static str, reason: String },
}

fn invalid(name: &'static str, reason: impl Into<String>) -> ConfigError {
    ConfigError::Invalid { name, reason: reason.into() }
}

impl Config {
    /// Reads the process environment, after loading `.env` if there is one.
    pub fn from_env() -> Result<Self, ConfigError> {
        // A missing .env is the normal case; a malformed one should not pass silently.
        if let Err(e) = dotenvy::dotenv()
            && !e.not_found()
        {
            return Err(invalid(".env", e.to_string()));
        }
        Self::from_lookup(|name| std::env::var(name).ok())
    }

    /// Builds the configuration from any variable lookup (tests pass a map).
    pub fn from_lookup(lookup: impl Fn(&str) -> Option<String>) -> Result<Self, ConfigError> {
        let var = |name: &str| lookup(name).map(|v| v.trim().to_owned()).filter(|v| !v.is_empty());

        let data_dir = PathBuf::from(var("SETUPIQ_DATA_DIR").unwrap_or_else(|| "./data".into()));
        let public_url =
            parse_public_url(&var("SETUPIQ_PUBLIC_URL").unwrap_or_else(|| "http://127.0.0.1:8080".into()))?;
        let database_url = var("SETUPIQ_DATABASE_URL")
            .unwrap_or_else(|| format!("sqlite://{}", data_dir.join("setupiq.db").display()));
        database_backend(&database_url)?;
        let analyzer = match var("SETUPIQ_ANALYZER").as_deref().unwrap_or("local") {
            "local" => AnalyzerKind::Local,
            "openai" => AnalyzerKind::OpenAi,
            other => {
                return Err(invalid(
                    "SETUPIQ_ANALYZER",
                    format!("expected `local` or `openai`, got `{other}`"),
                ));
            }
        };
        let admin_emails = var("SETUPIQ_ADMIN_EMAILS")
            .map(|list| {
                list.split(',').map(crate::validation::normalize_email).filter(|e| !e.is_empty()).collect()
            })
            .unwrap_or_default();

        Ok(Self {
            bind: var("SETUPIQ_BIND").unwrap_or_else(|| "127.0.0.1:8080".into()),
            public_url,
            database_url: Secret::new(database_url),
            analyzer,
            openai: OpenAiConfig {
                base_url: var("SETUPIQ_OPENAI_BASE_URL"),
                api_key: var("SETUPIQ_OPENAI_API_KEY").map(Secret::new),
                model: var("SETUPIQ_OPENAI_MODEL"),
                timeout_secs: number(&var, "SETUPIQ_OPENAI_TIMEOUT_SECS", 30)?,
                max_parallel: number(&var, "SETUPIQ_OPENAI_MAX_PARALLEL", 4)?,
            },
            stripe: StripeConfig {
                secret_key: var("STRIPE_SECRET_KEY").map(Secret::new),
                publishable_key: var("STRIPE_PUBLISHABLE_KEY"),
                webhook_secret: var("STRIPE_WEBHOOK_SECRET").map(Secret::new),
                api_base: var("SETUPIQ_STRIPE_API_BASE"),
                pro_product: var("STRIPE_PRO_PRODUCT").filter(|id| !id.trim().is_empty()),
            },
            smtp_url: var("SETUPIQ_SMTP_URL").map(Secret::new),
            metrics_token: var("SETUPIQ_METRICS_TOKEN").filter(|t| !t.trim().is_empty()).map(Secret::new),
            mail_from: var("SETUPIQ_MAIL_FROM").unwrap_or_else(|| "SetupIQ <no-reply@setupiq.local>".into()),
            support_email: var("SETUPIQ_SUPPORT_EMAIL").unwrap_or_else(|| "support@setupiq.local".into()),
            business_email: var("SETUPIQ_BUSINESS_EMAIL").unwrap_or_else(|| "business@setupiq.local".into()),
            object_store: var("SETUPIQ_OBJECT_STORE_URL").map(|url| crate::media::S3Settings {
                url,
                access_key_id: var("AWS_ACCESS_KEY_ID"),
                secret_access_key: var("AWS_SECRET_ACCESS_KEY"),
                region: var("AWS_REGION").or_else(|| var("AWS_DEFAULT_REGION")),
                endpoint: var("AWS_ENDPOINT_URL").or_else(|| var("AWS_ENDPOINT_URL_S3")),
            }),
            admin_emails,
            frontend_dir: PathBuf::from(
                var("SETUPIQ_FRONTEND_DIR").unwrap_or_else(|| "frontend/dist".into()),
            ),
            log_json: var("SETUPIQ_LOG_FORMAT").is_some_and(|f| f.eq_ignore_ascii_case("json")),
            affiliate_conversion_bp: number(&var, "SETUPIQ_AFFILIATE_CONVERSION_BP", 500)?,
            pro_prices: ProPrices {
                monthly_cents: number(&var, "SETUPIQ_PRO_MONTHLY_CENTS", ProPrices::default().monthly_cents)?,
                yearly_cents: number(&var, "SETUPIQ_PRO_YEARLY_CENTS", ProPrices::default().yearly_cents)?,
            },
            body_timeout: std::time::Duration::from_secs(number(&var, "SETUPIQ_BODY_TIMEOUT_SECS", 30)?),
            body_budget_bytes: number::<usize>(&var, "SETUPIQ_BODY_BUDGET_MB", 160)?
                .saturating_mul(1024 * 1024),
            pixel_budget_mp: number(&var, "SETUPIQ_PIXEL_BUDGET_MP", crate::upload::DEFAULT_PIXEL_BUDGET_MP)?,
            trusted_proxies: crate::forwarded::parse_trusted(
                &var("SETUPIQ_TRUSTED_PROXIES").unwrap_or_default(),
            )
            .map_err(|why| invalid("SETUPIQ_TRUSTED_PROXIES", why))?,
            signups: SignupLimits {
                per_hour: number(&var, "SETUPIQ_SIGNUPS_PER_HOUR_PER_IP", SignupLimits::default().per_hour)?,
                bonus_per_day: number(
                    &var,
                    "SETUPIQ_SIGNUP_BONUS_PER_DAY_PER_IP",
                    SignupLimits::default().bonus_per_day,
                )?,
            },
            models_dir: PathBuf::from(var("SETUPIQ_MODELS_DIR").unwrap_or_else(|| "models".into())),
            legal: LegalInfo::from_lookup(&var)?,
            adsense_client: var("SETUPIQ_ADSENSE_CLIENT"),
            comment_filter: var("SETUPIQ_COMMENT_FILTER")
                .map(|pattern| WordFilter::new(&pattern))
                .transpose()
                .map_err(|why| invalid("SETUPIQ_COMMENT_FILTER", why))?,
            media_sweep_grace: chrono::Duration::minutes(number(
                &var,
                "SETUPIQ_MEDIA_SWEEP_GRACE_MINUTES",
                crate::media_sweep::DEFAULT_GRACE.num_minutes(),
            )?),
            visitor_result_keep: chrono::Duration::minutes(number(
                &var,
                "SETUPIQ_VISITOR_RESULT_MINUTES",
                DEFAULT_VISITOR_RESULT_KEEP.num_minutes(),
            )?),
            data_dir,
        })
    }

    /// The public origin, e.g. `https://setupiq.example`, as browsers send it in `Origin`.
    pub fn public_origin(&self) -> String {
        self.public_url.origin().ascii_serialization()
    }

    /// Whether cookies must be `Secure` (and `__Host-` prefixed).
    pub fn is_https(&self) -> bool {
        self.public_url.scheme() == "https"
    }

    /// An absolute link to a page of the app, built from the public URL only.
    pub fn public_link(&self, path_and_query: &str) -> String {
        format!("{}{}", self.public_origin(), path_and_query)
    }

    pub fn database_backend(&self) -> DatabaseBackend {
        // Checked when the config was built.
        database_backend(self.database_url.expose()).unwrap_or(DatabaseBackend::Sqlite)
    }

    pub fn outbox_dir(&self) -> PathBuf {
        self.data_dir.join("outbox")
    }

    pub fn media_dir(&self) -> PathBuf {
        self.data_dir.join("media")
    }

    pub fn is_admin_email(&self, email: &str) -> bool {
        let email = crate::validation::normalize_email(email);
        self.admin_emails.contains(&email)
    }
}

/// Which backend a database URL selects; anything but `sqlite://` and `postgres://`
/// (or `postgresql://`) is refused at start-up.
pub fn database_backend(url: &str) -> Result<DatabaseBackend, ConfigError> {
    if url.starts_with("sqlite://") {
        Ok(DatabaseBackend::Sqlite)
    } else if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        Ok(DatabaseBackend::Postgres)
    } else {
        let scheme = url.split("://").next().filter(|s| *s != url).unwrap_or("(none)");
        Err(invalid(
            "SETUPIQ_DATABASE_URL",
            format!("unsupported scheme `{scheme}`: use sqlite://PATH or postgres://USER@HOST/DB"),
        ))
    }
}

/// A positive whole number from the environment, or `default` when unset.
fn number<T: std::str::FromStr + PartialOrd + Default>(
    var: &impl Fn(&str) -> Option<String>,
    name: &'static str,
    default: T,
) -> Result<T, ConfigError> {
    match var(name) {
        None => Ok(default),
        Some(raw) => raw
            .parse::<T>()
            .ok()
            .filter(|n| *n > T::default())
            .ok_or_else(|| invalid(name, format!("expected a positive whole number, got `{raw}`"))),
    }
}

fn parse_public_url(raw: &str) -> Result<Url, ConfigError> {
    let url = Url::parse(raw).map_err(|e| invalid("SETUPIQ_PUBLIC_URL", e.to_string()))?;
    if !matches!(url.scheme(), "http" | "https") || url.host().is_none() {
        return Err(invalid("SETUPIQ_PUBLIC_URL", "expected an http:// or https:// URL with a host"));
    }
    Ok(url)
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;

    fn config(vars: &[(&str, &str)]) -> Result<Config, ConfigError> {
        let map: HashMap<String, String> =
            vars.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect();
        Config::from_lookup(|name| map.get(name).cloned())
    }

    #[test]
    fn the_comment_filter_matches_any_case_and_a_bad_pattern_stops_the_start() {
        assert!(config(&[]).unwrap().comment_filter.is_none());
        let filter = config(&[("SETUPIQ_COMMENT_FILTER", r"\bbadword\b")]).unwrap().comment_filter.unwrap();
        assert!(filter.refuses("a BadWord here") && !filter.refuses("badwordless"));
        let err = config(&[("SETUPIQ_COMMENT_FILTER", "(unclosed")]).unwrap_err();
        assert!(err.to_string().contains("SETUPIQ_COMMENT_FILTER"), "{err}");
    }

    #[test]
    fn legal_details_are_read_as_given_and_a_bad_policy_date_is_refused() {
        let unset = config(&[]).unwrap();
        assert_eq!(unset.legal, LegalInfo::default(), "nothing is invented");
        assert_eq!(unset.adsense_client, None);
        let set = config(&[
            ("SETUPIQ_LEGAL_OPERATOR", "Rig Labs GmbH"),
            ("SETUPIQ_LEGAL_ADDRESS", " Hauptstr. 1 ; 10115 Berlin;; Germany "),
            ("SETUPIQ_LEGAL_POLICY_DATE", "2026-03-14"),
            ("SETUPIQ_ADSENSE_CLIENT", "ca-pub-123"),
        ])
        .unwrap();
        assert_eq!(set.legal.operator.as_deref(), Some("Rig Labs GmbH"));
        assert_eq!(set.legal.address, ["Hauptstr. 1", "10115 Berlin", "Germany"]);
        assert_eq!(set.legal.policy_date, chrono::NaiveDate::from_ymd_opt(2026, 3, 14));
        assert_eq!(set.adsense_client.as_deref(), Some("ca-pub-123"));
        let err = config(&[("SETUPIQ_LEGAL_POLICY_DATE", "14/03/2026")]).unwrap_err();
        assert!(err.to_string().contains("SETUPIQ_LEGAL_POLICY_DATE"), "{err}");
    }

    #[test]
    fn defaults_serve_sqlite_on_localhost() {
        let c = config(&[]).unwrap();
        assert_eq!(c.bind, "127.0.0.1:8080");
        assert_eq!(c.public_origin(), "http://127.0.0.1:8080");
        assert_eq!(c.database_url.expose(), "sqlite://./data/setupiq.db");
        assert_eq!(c.database_backend(), DatabaseBackend::Sqlite);
        assert_eq!(c.analyzer, AnalyzerKind::Local);
        assert!(!c.is_https());
        assert_eq!(c.outbox_dir(), PathBuf::from("./data/outbox"));
        assert_eq!(c.support_email, "support@setupiq.local");
        let custom = config(&[("SETUPIQ_SUPPORT_EMAIL", " help@setupiq.example ")]).unwrap();
        assert_eq!(custom.support_email, "help@setupiq.example");
        assert_eq!(c.business_email, "business@setupiq.local");
        let custom = config(&[("SETUPIQ_BUSINESS_EMAIL", "press@setupiq.example")]).unwrap();
        assert_eq!(custom.business_email, "press@setupiq.example");
    }

    #[test]
    fn the_analyzer_settings_have_defaults_and_refuse_nonsense() {
        let c = config(&[]).unwrap();
        assert_eq!((c.openai.timeout_secs, c.openai.max_parallel), (30, 4));
        assert_eq!(c.models_dir, std::path::PathBuf::from("models"));
        let c =
            config(&[("SETUPIQ_OPENAI_TIMEOUT_SECS", "5"), ("SETUPIQ_OPENAI_MAX_PARALLEL", "2")]).unwrap();
        assert_eq!((c.openai.timeout_secs, c.openai.max_parallel), (5, 2));
        for bad in ["0", "-3", "soon"] {
            let err = config(&[("SETUPIQ_OPENAI_TIMEOUT_SECS", bad)]).unwrap_err();
            assert!(err.to_string().contains("SETUPIQ_OPENAI_TIMEOUT_SECS"), "{err}");
        }
        assert!(
            config(&[("SETUPIQ_ANALYZER", "clip")]).unwrap_err().to_string().contains("`local` or `openai`")
        );
    }

    #[test]
    fn unknown_database_schemes_are_a_clear_error() {
        let err = config(&[("SETUPIQ_DATABASE_URL", "mysql://root@localhost/x")]).unwrap_err();
        assert!(err.to_string().contains("unsupported scheme `mysql`"), "{err}");
        assert!(config(&[("SETUPIQ_DATABASE_URL", "postgres://postgres@127.0.0.1/test")]).is_ok());
    }

    #[test]
    fn sign_up_limits_have_defaults_and_refuse_nonsense() {
        assert_eq!(config(&[]).unwrap().signups, SignupLimits { per_hour: 10, bonus_per_day: 5 });
        let custom =
            config(&[("SETUPIQ_SIGNUPS_PER_HOUR_PER_IP", "3"), ("SETUPIQ_SIGNUP_BONUS_PER_DAY_PER_IP", "1")]);
        assert_eq!(custom.unwrap().signups, SignupLimits { per_hour: 3, bonus_per_day: 1 });
        for bad in ["0", "-1", "many"] {
            assert!(config(&[("SETUPIQ_SIGNUPS_PER_HOUR_PER_IP", bad)]).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_media_sweep_waits_an_hour_unless_told_otherwise() {
        assert_eq!(config(&[]).unwrap().media_sweep_grace, chrono::Duration::hours(1));
        let custom = config(&[("SETUPIQ_MEDIA_SWEEP_GRACE_MINUTES", "5")]).unwrap();
        assert_eq!(custom.media_sweep_grace, chrono::Duration::minutes(5));
        for bad in ["0", "-10", "soon"] {
            assert!(config(&[("SETUPIQ_MEDIA_SWEEP_GRACE_MINUTES", bad)]).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_visitors_result_is_kept_an_hour_unless_told_otherwise() {
        assert_eq!(config(&[]).unwrap().visitor_result_keep, chrono::Duration::hours(1));
        let custom = config(&[("SETUPIQ_VISITOR_RESULT_MINUTES", "15")]).unwrap();
        assert_eq!(custom.visitor_result_keep, chrono::Duration::minutes(15));
        for bad in ["0", "-5", "a while"] {
            assert!(config(&[("SETUPIQ_VISITOR_RESULT_MINUTES", bad)]).is_err(), "{bad}");
        }
    }

    #[test]
    fn secrets_do_not_show_in_debug_output() {
        let c =
            config(&[("STRIPE_SECRET_KEY", "sk_test_123"), ("SETUPIQ_DATABASE_URL", "postgres://u:pw@h/db")])
                .unwrap();
        let printed = format!("{c:?}");
        assert!(!printed.contains("sk_test_123") && !printed.contains("pw@h"), "{printed}");
    }

    #[test]
    fn admin_emails_are_normalised_and_links_use_the_public_url() {
        let c = config(&[
            ("SETUPIQ_ADMIN_EMAILS", " Boss@Example.com, ,ops@example.com"),
            ("SETUPIQ_PUBLIC_URL", "https://setupiq.example/"),
        ])
        .unwrap();
        assert!(c.is_admin_email("boss@example.com") && c.is_admin_email("OPS@example.com"));
        assert!(!c.is_admin_email("someone@example.com"));
        assert!(c.is_https());
        assert_eq!(
            c.public_link("/reset-password?token=x"),
            "https://setupiq.example/reset-password?token=x"
        );
    }

    #[test]
    fn public_url_must_be_http() {
        assert!(config(&[("SETUPIQ_PUBLIC_URL", "ftp://x")]).is_err());
        assert!(config(&[("SETUPIQ_ANALYZER", "magic")]).is_err());
    }
}
