//! `GET /_api/health` and `GET /_api/ready`, for load balancers and orchestrators:
//!
//! - **health** is liveness: the process answers HTTP. It never touches the database, so
//!   a database outage does not get every replica restarted (which would not bring the
//!   database back, and would drop the requests in flight).
//! - **ready** is readiness: the database answers too. While it does not, `ready` is 503
//!   with `Retry-After` within a second (the statement deadline), and a proxy sends
//!   traffic elsewhere until it is 200 again; nothing needs restarting.

use actix_web::{get, web};
use serde::{Deserialize, Serialize};
use setupiq_core::{ApiError, ErrorBody};
use setupiq_db::Db;
use utoipa::ToSchema;

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct HealthResponse {
    /// `ok`.
    pub status: String,
    /// `sqlite` or `postgres`.
    pub database: String,
}

fn answer(db: &Db) -> web::Json<HealthResponse> {
    let database = match db.backend() {
        setupiq_core::config::DatabaseBackend::Sqlite => "sqlite",
        setupiq_core::config::DatabaseBackend::Postgres => "postgres",
    };
    web::Json(HealthResponse { status: "ok".into(), database: database.into() })
}

/// Liveness: the service answers (the database is not asked; see `/_api/ready`).
#[utoipa::path(tag = "health", responses((status = 200, description = "Alive", body = HealthResponse)))]
#[get("/_api/health")]
pub async fn health(db: web::Data<Db>) -> web::Json<HealthResponse> {
    answer(&db)
}

/// Readiness: the service and its database answer.
#[utoipa::path(
    tag = "health",
    responses(
        (status = 200, description = "Ready for traffic", body = HealthResponse),
        (status = 503, description = "The database does not answer", body = ErrorBody),
    )
)]
#[get("/_api/ready")]
pub async fn ready(db: web::Data<Db>) -> Result<web::Json<HealthResponse>, ApiError> {
    db.ping().await?;
    Ok(answer(&db))
}
