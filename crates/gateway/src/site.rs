//! `GET /_api/site`: what this deployment is, for pages that depend on it: who operates it
//! (the legal pages and the Impressum, from `SETUPIQ_LEGAL_*`), whether ads are configured
//! (`SETUPIQ_ADSENSE_CLIENT`), which analyzer rates photos and where support mail goes
//! (`SETUPIQ_SUPPORT_EMAIL`, so the Contact page names the address its form writes to). Public and the same for
//! everyone, so browsers and proxies may keep it a few minutes.

use actix_web::http::header::{CacheControl, CacheDirective};
use actix_web::{HttpResponse, get, web};
use serde::{Deserialize, Serialize};
use setupiq_core::config::{AnalyzerKind, Config, LegalInfo};
use utoipa::ToSchema;

/// Which analyzer rates photos: the embedded models, or an OpenAI-compatible provider.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum AnalyzerName {
    Local,
    Openai,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SiteResponse {
    /// The operator's details; a field the operator has not configured is null.
    pub legal: LegalInfo,
    /// The AdSense publisher id; null: no ads, and no ad slot is shown.
    pub adsense_client: Option<String>,
    pub analyzer: AnalyzerName,
    /// `SETUPIQ_SUPPORT_EMAIL`: where contact-form messages go, the address the Contact page shows.
    pub support_email: String,
    /// `SETUPIQ_BUSINESS_EMAIL`: the address the Contact page gives for business inquiries.
    pub business_email: String,
}

impl SiteResponse {
    pub fn from_config(config: &Config) -> Self {
        Self {
            legal: config.legal.clone(),
            adsense_client: config.adsense_client.clone(),
            analyzer: match config.analyzer {
                AnalyzerKind::Local => AnalyzerName::Local,
                AnalyzerKind::OpenAi => AnalyzerName::Openai,
            },
            support_email: config.support_email.clone(),
            business_email: config.business_email.clone(),
        }
    }
}

/// The deployment's operator details, ad configuration, analyzer and contact addresses.
#[utoipa::path(tag = "site", responses((status = 200, description = "This deployment", body = SiteResponse)))]
#[get("/_api/site")]
pub async fn site(config: web::Data<Config>) -> HttpResponse {
    HttpResponse::Ok()
        .insert_header(CacheControl(vec![CacheDirective::Public, CacheDirective::MaxAge(300)]))
        .json(SiteResponse::from_config(&config))
}
