//! The database layer: one schema, two backends. [`DbConnection`] is a diesel
//! `MultiConnection` over SQLite (the embedded default) and PostgreSQL (to scale out),
//! chosen by the URL's scheme; [`Db`] is the r2d2 pool with the one helper through which
//! async code runs blocking queries, [`Db::run`].

pub mod ctx;
pub mod hooks;
pub mod in_ids;
pub mod schema;
pub mod text_enum;

use std::path::Path;
use std::time::Duration;

use diesel::connection::{SimpleConnection, TransactionManager};
use diesel::pg::PgConnection;
use diesel::r2d2::{self, ManageConnection, R2D2Connection};
use diesel::result::{DatabaseErrorKind, Error as QueryError};
use diesel::sqlite::SqliteConnection;
use diesel::{Connection, ConnectionError, RunQueryDsl};
use diesel_migrations::{EmbeddedMigrations, MigrationHarness, embed_migrations};
use setupiq_core::ApiError;
use setupiq_core::config::{DatabaseBackend, database_backend};

pub use ctx::AppCtx;
pub use diesel::result::Error as DieselError;
pub use hooks::Hooks;
pub use in_ids::in_ids;

/// A connection to whichever backend the configuration chose.
#[derive(diesel::MultiConnection)]
pub enum DbConnection {
    Sqlite(SqliteConnection),
    Postgres(PgConnection),
}

impl DbConnection {
    pub fn backend(&self) -> DatabaseBackend {
        match self {
            Self::Sqlite(_) => DatabaseBackend::Sqlite,
            Self::Postgres(_) => DatabaseBackend::Postgres,
        }
    }
}

/// Runs the same query text against the concrete connection of either backend, for the
/// few statements the `MultiConnection` cannot express (`RETURNING`, upserts, bulk inserts),
/// for the nodes that render per backend ([`in_ids`]), and for the reads of every signed-in
/// feed request: through the `MultiConnection` diesel writes a query's SQL text out again
/// on each execution, even when the statement is cached.
#[macro_export]
macro_rules! on_backend {
    ($conn:expr, |$c:ident| $body:expr) => {
        match $conn {
            $crate::DbConnection::Sqlite($c) => $body,
            $crate::DbConnection::Postgres($c) => $body,
        }
    };
}

/// How long one statement may run on PostgreSQL (its own `statement_timeout`); SQLite waits
/// as long for a lock (`busy_timeout`).
pub const STATEMENT_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a request waits for a pooled connection (or for a new one to be made) before
/// it answers 503: a database that refuses connections costs a request this much.
pub const CHECKOUT_TIMEOUT: Duration = Duration::from_secs(3);
/// The most a request waits for its database work, whatever happens below: a database that
/// stops answering (not refusing) would otherwise hold the request, and its connection,
/// forever. Longer than the statement timeout so that one answers first when it can.
pub const WORK_DEADLINE: Duration = Duration::from_secs(15);
/// How long the health check waits for the database.
pub const HEALTH_DEADLINE: Duration = Duration::from_millis(800);
/// How long libpq may take to open a connection (`connect_timeout`, whole seconds).
const CONNECT_TIMEOUT_SECS: u64 = 3;

pub const SQLITE_MIGRATIONS: EmbeddedMigrations = embed_migrations!("../../migrations/sqlite");
pub const POSTGRES_MIGRATIONS: EmbeddedMigrations = embed_migrations!("../../migrations/postgres");

#[derive(Debug, thiserror::Error)]
pub enum DbError {
    #[error("no database connection available: {0}")]
    Pool(#[from] r2d2::PoolError),
    #[error("database query failed: {0}")]
    Query(#[from] QueryError),
    #[error("database connection failed: {0}")]
    Connection(#[from] ConnectionError),
    #[error("migrations failed: {0}")]
    Migration(String),
    #[error("the blocking task was cancelled")]
    Cancelled,
    #[error("the database did not answer within {0:?}")]
    Timeout(Duration),
    #[error("{0}")]
    Config(String),
}

/// Lets `?` turn a diesel error into a domain error through its `Db(DbError)` variant: the
/// one conversion every domain crate declares with `setupiq_db::query_errors_into!(ItsError);`.
#[macro_export]
macro_rules! query_errors_into {
    ($error:ty) => {
        impl From<$crate::DieselError> for $error {
            fn from(err: $crate::DieselError) -> Self {
                Self::Db($crate::DbError::Query(err))
            }
        }
    };
}

impl From<DbError> for ApiError {
    fn from(err: DbError) -> Self {
        match err {
            DbError::Query(e) => query_error(e),
            DbError::Pool(_) | DbError::Connection(_) | DbError::Timeout(_) => ApiError::unavailable(err),
            other => ApiError::internal(other),
        }
    }
}

/// diesel errors as the API reports them: `NotFound` is 404, a unique violation 409,
/// anything else a logged 500.
pub fn query_error(err: QueryError) -> ApiError {
    match err {
        QueryError::NotFound => ApiError::not_found("Not found."),
        QueryError::DatabaseError(DatabaseErrorKind::UniqueViolation, _) => {
            ApiError::conflict("This already exists.")
        }
        other => ApiError::internal(other),
    }
}

/// Whether an error is a unique-constraint violation (a concurrent duplicate).
pub fn is_unique_violation(err: &QueryError) -> bool {
    matches!(err, QueryError::DatabaseError(DatabaseErrorKind::UniqueViolation, _))
}

/// Opens connections for r2d2, with the SQLite pragmas every connection needs.
#[derive(Debug, Clone)]
pub struct DbConnectionManager {
    url: String,
    backend: DatabaseBackend,
}

impl DbConnectionManager {
    pub fn new(url: &str) -> Result<Self, DbError> {
        let backend = database_backend(url).map_err(|e| DbError::Config(e.to_string()))?;
        Ok(Self { url: url.to_owned(), backend })
    }

    fn sqlite_path(&self) -> &str {
        self.url.strip_prefix("sqlite://").unwrap_or(&self.url)
    }

    pub fn establish(&self) -> Result<DbConnection, ConnectionError> {
        match self.backend {
            DatabaseBackend::Sqlite => {
                let path = self.sqlite_path();
                if let Some(dir) = Path::new(path).parent().filter(|d| !d.as_os_str().is_empty()) {
                    std::fs::create_dir_all(dir).map_err(|e| {
                        ConnectionError::BadConnection(format!("cannot create {}: {e}", dir.display()))
                    })?;
                }
                let mut conn = SqliteConnection::establish(path)?;
                // busy_timeout first: the journal-mode switch itself waits for a lock while
                // another connection writes.
                conn.batch_execute(&format!(
                    "PRAGMA busy_timeout = {}; PRAGMA journal_mode = WAL; \
                     PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;",
                    STATEMENT_TIMEOUT.as_millis()
                ))
                .map_err(ConnectionError::CouldntSetupConfiguration)?;
                Ok(DbConnection::Sqlite(conn))
            }
            DatabaseBackend::Postgres => {
                let mut conn = PgConnection::establish(&with_connect_timeout(&self.url))?;
                conn.batch_execute(&format!("SET statement_timeout = {}", STATEMENT_TIMEOUT.as_millis()))
                    .map_err(ConnectionError::CouldntSetupConfiguration)?;
                Ok(DbConnection::Postgres(conn))
            }
        }
    }
}

/// The URL with libpq's `connect_timeout` unless it sets one: a server that accepts the TCP
/// connection but never answers would otherwise hold the connecting thread forever.
fn with_connect_timeout(url: &str) -> String {
    if url.contains("connect_timeout=") {
        return url.to_owned();
    }
    let separator = if url.contains('?') { '&' } else { '?' };
    format!("{url}{separator}connect_timeout={CONNECT_TIMEOUT_SECS}")
}

impl ManageConnection for DbConnectionManager {
    type Connection = DbConnection;
    type Error = r2d2::Error;

    fn connect(&self) -> Result<DbConnection, r2d2::Error> {
        self.establish().map_err(r2d2::Error::ConnectionError)
    }

    fn is_valid(&self, conn: &mut DbConnection) -> Result<(), r2d2::Error> {
        conn.ping().map_err(r2d2::Error::QueryError)
    }

    fn has_broken(&self, conn: &mut DbConnection) -> bool {
        std::thread::panicking() || conn.is_broken()
    }
}

pub type PooledConnection = r2d2::PooledConnection<DbConnectionManager>;

/// A snapshot of the connection pool ([`Db::pool_usage`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PoolUsage {
    pub max: u32,
    pub open: u32,
    pub idle: u32,
}

/// The connection pool. Cheap to clone.
#[derive(Clone)]
pub struct Db {
    pool: r2d2::Pool<DbConnectionManager>,
    backend: DatabaseBackend,
}

impl std::fmt::Debug for Db {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Db").field("backend", &self.backend).field("state", &self.pool.state()).finish()
    }
}

impl Db {
    /// Opens a pool for `url` (`sqlite://…` or `postgres://…`).
    pub fn connect(url: &str) -> Result<Self, DbError> {
        let manager = DbConnectionManager::new(url)?;
        let backend = manager.backend.clone();
        let size = match backend {
            DatabaseBackend::Sqlite => 8,
            DatabaseBackend::Postgres => 12,
        };
        // A PostgreSQL connection can die with its server or the network, so r2d2 tries each
        // one before handing it out; an SQLite connection is a file handle that cannot, and
        // the try (`SELECT 1`, prepared afresh each time) cost every request a statement.
        let test_on_check_out = matches!(backend, DatabaseBackend::Postgres);
        let pool = r2d2::Pool::builder()
            .max_size(size)
            .min_idle(Some(1))
            .test_on_check_out(test_on_check_out)
            .connection_timeout(CHECKOUT_TIMEOUT)
            .build(manager)?;
        Ok(Self { pool, backend })
    }

    pub fn backend(&self) -> DatabaseBackend {
        self.backend.clone()
    }

    /// The pool's size, and how many of its connections are open and idle right now.
    pub fn pool_usage(&self) -> PoolUsage {
        let state = self.pool.state();
        PoolUsage { max: self.pool.max_size(), open: state.connections, idle: state.idle_connections }
    }

    /// A connection for synchronous callers (CLI, tests). Async code uses [`Db::run`].
    pub fn conn(&self) -> Result<PooledConnection, DbError> {
        Ok(self.pool.get()?)
    }

    /// Runs blocking database work on actix's blocking thread pool, off the async workers,
    /// and gives up waiting after [`WORK_DEADLINE`] (the work itself cannot be interrupted;
    /// its connection comes back to the pool if the database answers again).
    pub async fn run<T, E, F>(&self, work: F) -> Result<T, E>
    where
        F: FnOnce(&mut DbConnection) -> Result<T, E> + Send + 'static,
        T: Send + 'static,
        E: From<DbError> + Send + 'static,
    {
        self.run_within(WORK_DEADLINE, work).await
    }

    /// [`Db::run`] with another deadline.
    pub async fn run_within<T, E, F>(&self, deadline: Duration, work: F) -> Result<T, E>
    where
        F: FnOnce(&mut DbConnection) -> Result<T, E> + Send + 'static,
        T: Send + 'static,
        E: From<DbError> + Send + 'static,
    {
        let pool = self.pool.clone();
        let blocking = actix_web::web::block(move || {
            let mut conn = pool.get().map_err(DbError::Pool)?;
            work(&mut conn)
        });
        match actix_web::rt::time::timeout(deadline, blocking).await {
            Ok(done) => done.map_err(|_| E::from(DbError::Cancelled))?,
            Err(_) => Err(E::from(DbError::Timeout(deadline))),
        }
    }

    /// Applies the pending embedded migrations of this backend; returns how many ran.
    pub fn migrate(&self) -> Result<usize, DbError> {
        let mut conn = self.conn()?;
        migrate(&mut conn)
    }

    /// Whether the database answers, within [`HEALTH_DEADLINE`].
    pub async fn ping(&self) -> Result<(), DbError> {
        self.run_within(HEALTH_DEADLINE, |conn| conn.ping().map_err(DbError::from)).await
    }
}

/// The PostgreSQL advisory lock replicas take while migrating (any fixed number: it only
/// has to be the same in every replica).
const MIGRATION_LOCK: i64 = 0x5e7_0919;

/// Applies the pending migrations of the connection's backend. On PostgreSQL, replicas
/// starting together take turns (an advisory lock): the first applies them, the others
/// then find nothing pending.
pub fn migrate(conn: &mut DbConnection) -> Result<usize, DbError> {
    let applied = match conn {
        DbConnection::Sqlite(c) => c.run_pending_migrations(SQLITE_MIGRATIONS).map(|v| v.len()),
        DbConnection::Postgres(c) => {
            let lock = |c: &mut PgConnection, call: &str| {
                diesel::sql_query(format!("SELECT {call}({MIGRATION_LOCK})"))
                    .execute(c)
                    .map_err(|e| DbError::Migration(e.to_string()))
            };
            lock(c, "pg_advisory_lock")?;
            let applied = c.run_pending_migrations(POSTGRES_MIGRATIONS).map(|v| v.len());
            lock(c, "pg_advisory_unlock")?;
            applied
        }
    };
    applied.map_err(|e| DbError::Migration(e.to_string()))
}

/// Runs `work` in a transaction that takes the write lock up front.
///
/// On SQLite a plain (deferred) transaction that reads before it writes can fail with
/// `SQLITE_BUSY` when another writer commits in between, and the busy timeout cannot help;
/// `BEGIN IMMEDIATE` queues writers on the busy timeout instead. PostgreSQL uses an
/// ordinary transaction; guarded updates and unique constraints do the rest. Nested calls
/// use a savepoint.
pub fn write_transaction<T, E, F>(conn: &mut DbConnection, work: F) -> Result<T, E>
where
    F: FnOnce(&mut DbConnection) -> Result<T, E>,
    E: From<QueryError>,
{
    type Manager = <DbConnection as Connection>::TransactionManager;
    let nested = Manager::transaction_manager_status_mut(conn).transaction_depth()?.is_some();
    match conn {
        // Inside a transaction this becomes a savepoint, as with `Connection::transaction`.
        DbConnection::Sqlite(sqlite) if !nested => {
            diesel::connection::AnsiTransactionManager::begin_transaction_sql(sqlite, "BEGIN IMMEDIATE")?
        }
        _ => Manager::begin_transaction(conn)?,
    }
    match work(conn) {
        Ok(value) => {
            Manager::commit_transaction(conn)?;
            Ok(value)
        }
        Err(err) => {
            Manager::rollback_transaction(conn)?;
            Err(err)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_schemes_are_refused() {
        let err = Db::connect("mysql://root@localhost/x").unwrap_err();
        assert!(err.to_string().contains("unsupported scheme"), "{err}");
    }

    #[test]
    fn migration_folders_match_across_backends() {
        let names = |backend: &str| {
            let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../migrations").join(backend);
            let mut names: Vec<String> = std::fs::read_dir(dir)
                .unwrap()
                .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
                .collect();
            names.sort();
            names
        };
        let sqlite = names("sqlite");
        assert!(!sqlite.is_empty());
        assert_eq!(
            sqlite,
            names("postgres"),
            "migrations/sqlite and migrations/postgres must mirror each other"
        );
    }

    #[test]
    fn sqlite_connections_get_their_pragmas() {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::connect(&format!("sqlite://{}/nested/x.db", dir.path().display())).unwrap();
        let embedded =
            diesel::migration::MigrationSource::<diesel::sqlite::Sqlite>::migrations(&SQLITE_MIGRATIONS)
                .unwrap()
                .len();
        assert_eq!(db.migrate().unwrap(), embedded);
        assert_eq!(db.migrate().unwrap(), 0, "migrations are applied once");
        let mut conn = db.conn().unwrap();
        #[derive(diesel::QueryableByName)]
        struct Pragma {
            #[diesel(sql_type = diesel::sql_types::Integer)]
            foreign_keys: i32,
        }
        let DbConnection::Sqlite(sqlite) = &mut *conn else { panic!("expected SQLite") };
        let row: Pragma =
            diesel::RunQueryDsl::get_result(diesel::sql_query("PRAGMA foreign_keys"), sqlite).unwrap();
        assert_eq!(row.foreign_keys, 1);
        // Built with the query planner stability guarantee (`.cargo/config.toml`): a cached
        // statement with a bound `LIMIT` is not prepared again at every execution.
        #[derive(diesel::QueryableByName)]
        struct CompileOption {
            #[diesel(sql_type = diesel::sql_types::Text)]
            compile_options: String,
        }
        let options: Vec<CompileOption> =
            diesel::RunQueryDsl::load(diesel::sql_query("PRAGMA compile_options"), sqlite).unwrap();
        assert!(options.iter().any(|o| o.compile_options == "ENABLE_QPSG"), "SQLite without QPSG");
    }
}
