//! `GET /_api/health`: whether the service and its database answer.

use actix_web::{get, web};
use serde::{Deserialize, Serialize};
use setupiq_core::{ApiError, ErrorBody};
use setupiq_db::Db;
use utoipa::ToSchema;

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct HealthResponse {
    /// `ok` when everything answers.
    pub status: String,
    /// `sqlite` or `postgres`.
    pub database: String,
}

/// Reports whether the service and its database are up.
#[utoipa::path(
    tag = "health",
    responses(
        (status = 200, description = "Healthy", body = HealthResponse),
        (status = 503, description = "The database does not answer", body = ErrorBody),
    )
)]
#[get("/_api/health")]
pub async fn health(db: web::Data<Db>) -> Result<web::Json<HealthResponse>, ApiError> {
    db.ping().await?;
    let database = match db.backend() {
        setupiq_core::config::DatabaseBackend::Sqlite => "sqlite",
        setupiq_core::config::DatabaseBackend::Postgres => "postgres",
    };
    Ok(web::Json(HealthResponse { status: "ok".into(), database: database.into() }))
}
