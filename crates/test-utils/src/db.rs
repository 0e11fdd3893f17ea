//! A fresh, migrated database per test: a SQLite file in a temporary directory, or a
//! PostgreSQL schema of its own (so tests run in parallel) that is dropped afterwards.

use diesel::Connection;
use diesel::connection::SimpleConnection;
use diesel::pg::PgConnection;
use rand::Rng;
use setupiq_db::{Db, PooledConnection};

/// Where the PostgreSQL half of the tests runs. Without TLS: the server is on loopback, and
/// libpq's OpenSSL use in the pool's background threads raced OpenSSL's clean-up at the
/// exit of a test process ("double free or corruption" after a passing test, rarely).
pub const DEFAULT_POSTGRES_URL: &str = "postgres://postgres@127.0.0.1:5432/test?sslmode=disable";

pub struct TestDb {
    db: Db,
    url: String,
    cleanup: Cleanup,
}

enum Cleanup {
    Sqlite(#[allow(dead_code)] tempfile::TempDir),
    Postgres { admin_url: String, schema: String },
}

impl TestDb {
    pub fn sqlite() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}/test.db", dir.path().display());
        let db = Db::connect(&url).unwrap();
        db.migrate().unwrap();
        Self { db, url, cleanup: Cleanup::Sqlite(dir) }
    }

    /// A private schema on the test PostgreSQL server, or `None` (with a loud message)
    /// when the server is unreachable and PostgreSQL is not required.
    pub fn postgres() -> Option<Self> {
        let admin_url =
            std::env::var("SETUPIQ_TEST_POSTGRES_URL").unwrap_or_else(|_| DEFAULT_POSTGRES_URL.to_owned());
        let mut admin = match PgConnection::establish(&admin_url) {
            Ok(conn) => conn,
            Err(e) => {
                assert!(
                    std::env::var("SETUPIQ_REQUIRE_POSTGRES").as_deref() != Ok("1"),
                    "PostgreSQL at {admin_url} is required but unreachable: {e}"
                );
                eprintln!("SKIPPED (PostgreSQL unreachable at {admin_url}: {e})");
                return None;
            }
        };
        let schema = format!("t_{:016x}", rand::rng().random::<u64>());
        admin.batch_execute(&format!("CREATE SCHEMA {schema}")).unwrap();
        let separator = if admin_url.contains('?') { '&' } else { '?' };
        let url = format!("{admin_url}{separator}options=-csearch_path%3D{schema}");
        let db = Db::connect(&url).unwrap();
        db.migrate().unwrap();
        Some(Self { db, url, cleanup: Cleanup::Postgres { admin_url, schema } })
    }

    /// The same database reached through `proxy` (`127.0.0.1:port`) instead of directly:
    /// a new pool whose every connection goes through it (PostgreSQL only).
    pub fn through(mut self, proxy: std::net::SocketAddr) -> Self {
        let direct = self.postgres_addr().expect("only PostgreSQL is reached over TCP");
        self.url = self.url.replacen(&direct, &proxy.to_string(), 1);
        self.db = Db::connect(&self.url).unwrap();
        self
    }

    /// `host:port` of the PostgreSQL server (for a proxy in front of it).
    pub fn postgres_addr(&self) -> Option<String> {
        let Cleanup::Postgres { admin_url, .. } = &self.cleanup else { return None };
        let parsed = url::Url::parse(admin_url).ok()?;
        Some(format!("{}:{}", parsed.host_str()?, parsed.port().unwrap_or(5432)))
    }

    pub fn db(&self) -> &Db {
        &self.db
    }

    pub fn url(&self) -> &str {
        &self.url
    }

    pub fn conn(&self) -> PooledConnection {
        self.db.conn().unwrap()
    }
}

impl Drop for TestDb {
    fn drop(&mut self) {
        if let Cleanup::Postgres { admin_url, schema } = &self.cleanup {
            // Best effort: a leftover schema only costs disk space in the test database.
            if let Ok(mut admin) = PgConnection::establish(admin_url) {
                let _ = admin.batch_execute(&format!("DROP SCHEMA IF EXISTS {schema} CASCADE"));
            }
        }
    }
}
