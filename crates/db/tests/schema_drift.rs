//! Guards against drift between the three descriptions of the database that must agree:
//! `crates/db/src/schema.rs` (what diesel compiles queries against), `migrations/sqlite` and
//! `migrations/postgres` (what the databases really get).
//!
//! `diesel print-schema` is not installed, so nothing regenerates schema.rs: a column added to
//! a migration but not to schema.rs (or the reverse, or a `Nullable<..>` that does not match
//! the `NOT NULL`) only shows up at run time, on one backend. These tests:
//!
//! 1. migrate a fresh database of each backend, read its live schema (SQLite: `sqlite_master`
//!    and `pragma_table_info`; PostgreSQL: `pg_catalog` for the test's own schema) and
//!    compare it with schema.rs, parsed from its text: the same tables, columns, nullability,
//!    a compatible type (on PostgreSQL the exact integer/float width too, as diesel's decoder
//!    needs it) and the same primary key;
//! 2. compare the two migration folders by content: the same migrations, each with `up.sql`
//!    and `down.sql`, creating and dropping the same tables, indexes and columns, and creating
//!    each table with the same column names. Types, `AUTOINCREMENT`/`BIGSERIAL` and other
//!    dialect details are deliberately not compared.
//!
//! The comparison functions take text, so the last tests feed them deliberately broken copies
//! to prove that they catch drift (no real file is touched).
//!
//! A SQLite table rebuild (create `t_new`, copy, drop `t`, rename `t_new` to `t`: SQLite's
//! only way to change a CHECK) stands for PostgreSQL's `ALTER TABLE t`: the indexes of `t`
//! that earlier migrations made, which it recreates, are not asked of PostgreSQL again, and
//! each column PostgreSQL adds to `t` must be in the rebuilt table (each it drops must not).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use diesel::sql_types::{Bool, Integer, Text};
use diesel::{QueryableByName, RunQueryDsl};
use setupiq_db::DbConnection;
use setupiq_test_utils::{TestDb, both_backends};

const SCHEMA_RS: &str = include_str!("../src/schema.rs");

fn migrations_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../migrations")
}

// ---------------------------------------------------------------------------------------------
// 1. schema.rs against the live databases
// ---------------------------------------------------------------------------------------------

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Backend {
    Sqlite,
    Postgres,
}

impl Backend {
    fn of(db: &TestDb) -> Self {
        if db.is_postgres() { Self::Postgres } else { Self::Sqlite }
    }

    fn label(self) -> &'static str {
        match self {
            Self::Sqlite => "SQLite",
            Self::Postgres => "PostgreSQL",
        }
    }
}

#[derive(Debug, Clone)]
struct Column {
    name: String,
    /// schema.rs: the diesel type without `Nullable<..>` (`BigInt`); live: the database's type.
    ty: String,
    nullable: bool,
}

#[derive(Debug, Default)]
struct Table {
    columns: Vec<Column>,
    primary_key: Vec<String>,
}

type Schema = BTreeMap<String, Table>;

both_backends!(live_schema_matches_schema_rs,);

fn live_schema_matches_schema_rs(db: TestDb) {
    let declared = parse_schema_rs(SCHEMA_RS);
    assert!(declared.len() > 5, "schema.rs parsed to only {} tables", declared.len());
    let backend = Backend::of(&db);
    let problems = compare_schema(backend, &declared, &read_live_schema(&db));
    assert!(
        problems.is_empty(),
        "schema.rs and the migrated {} database disagree ({} problems):\n  - {}\n\
         Fix whichever is wrong: the migration (in both migrations/sqlite and \
         migrations/postgres) or crates/db/src/schema.rs.",
        backend.label(),
        problems.len(),
        problems.join("\n  - ")
    );
}

/// Parses the `table! { name (pk, ..) { column -> Type, .. } }` blocks of schema.rs.
fn parse_schema_rs(text: &str) -> Schema {
    let text: String =
        text.lines().map(|line| line.split("//").next().unwrap_or("")).collect::<Vec<_>>().join("\n");
    let mut schema = Schema::new();
    let mut rest = text.as_str();
    while let Some(at) = rest.find("table!") {
        let is_macro = !rest[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_');
        rest = &rest[at + "table!".len()..];
        if !is_macro {
            continue;
        }
        let (body, after) = braced(rest).expect("a table! without a { .. } body");
        rest = after;
        let (name, table) = parse_table(body);
        assert!(schema.insert(name.clone(), table).is_none(), "schema.rs declares `{name}` twice");
    }
    schema
}

/// The text inside the first `{ .. }` of `text`, and what follows it.
fn braced(text: &str) -> Option<(&str, &str)> {
    let open = text.find('{')?;
    let mut depth = 0;
    for (i, c) in text[open..].char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 1 => return Some((&text[open + 1..open + i], &text[open + i + 1..])),
            '}' => depth -= 1,
            _ => {}
        }
    }
    None
}

/// One `name (pk) { columns }` table body; attributes and `use` lines before it are skipped.
fn parse_table(body: &str) -> (String, Table) {
    let mut body = body.trim_start();
    loop {
        if body.starts_with("#[") {
            body = body[body.find(']').expect("an unclosed attribute") + 1..].trim_start();
        } else if body.starts_with("use ") {
            body = body[body.find(';').expect("a `use` without `;`") + 1..].trim_start();
        } else {
            break;
        }
    }
    let (columns, _) = braced(body).expect("a table without a column block");
    let header = &body[..body.find('{').unwrap_or(0)];
    let (name, primary_key) = match header.split_once('(') {
        Some((name, pk)) => {
            (name, pk.trim_end().trim_end_matches(')').split(',').map(|c| c.trim().to_owned()).collect())
        }
        None => (header, vec!["id".to_owned()]),
    };
    let name = name.trim().rsplit('.').next().unwrap_or_default().to_owned();
    let columns = split_columns(columns).into_iter().filter_map(parse_column).collect();
    (name, Table { columns, primary_key })
}

/// `#[sql_name = "real"] rust_name -> Nullable<Type>`.
fn parse_column(entry: &str) -> Option<Column> {
    let mut entry = entry.trim();
    let mut sql_name = None;
    while entry.starts_with("#[") {
        let end = entry.find(']').expect("an unclosed column attribute");
        if let Some((key, value)) = entry[2..end].split_once('=')
            && key.trim() == "sql_name"
        {
            sql_name = Some(value.trim().trim_matches('"').to_owned());
        }
        entry = entry[end + 1..].trim_start();
    }
    if entry.is_empty() {
        return None;
    }
    let (name, ty) =
        entry.split_once("->").unwrap_or_else(|| panic!("not a `column -> Type` entry: {entry:?}"));
    let ty: String = ty.chars().filter(|c| !c.is_whitespace()).collect();
    let (nullable, ty) = match split_generic(&ty) {
        ("Nullable", Some(inner)) => (true, inner),
        _ => (false, ty.as_str()),
    };
    let ty = match split_generic(ty) {
        (outer, None) => outer.to_owned(),
        (outer, Some(inner)) => format!("{outer}<{inner}>"),
    };
    let name = sql_name.unwrap_or_else(|| name.trim().trim_start_matches("r#").to_owned());
    Some(Column { name, ty, nullable })
}

/// `diesel::sql_types::Nullable<Text>` -> (`Nullable`, Some(`Text`)); the path is dropped.
fn split_generic(ty: &str) -> (&str, Option<&str>) {
    let (outer, inner) = match ty.split_once('<') {
        Some((outer, inner)) => (outer, Some(inner.strip_suffix('>').unwrap_or(inner))),
        None => (ty, None),
    };
    (outer.rsplit("::").next().unwrap_or(outer), inner)
}

/// Splits a column block on the commas outside `<..>` (the `>` of `->` does not count).
fn split_columns(block: &str) -> Vec<&str> {
    let (mut parts, mut depth, mut start, mut previous) = (Vec::new(), 0, 0, ' ');
    for (i, c) in block.char_indices() {
        match c {
            '<' => depth += 1,
            '>' if previous != '-' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&block[start..i]);
                start = i + 1;
            }
            _ => {}
        }
        previous = c;
    }
    parts.push(&block[start..]);
    parts
}

/// One column as the database describes it.
#[derive(QueryableByName)]
struct LiveColumn {
    #[diesel(sql_type = Text)]
    table_name: String,
    #[diesel(sql_type = Text)]
    column_name: String,
    #[diesel(sql_type = Text)]
    data_type: String,
    #[diesel(sql_type = Bool)]
    not_null: bool,
    /// 1-based position in the primary key, 0 when not part of it.
    #[diesel(sql_type = Integer)]
    pk_position: i32,
}

const SQLITE_COLUMNS: &str = r#"
    SELECT m.name AS table_name, p.name AS column_name, p.type AS data_type,
           p."notnull" AS not_null, p.pk AS pk_position
    FROM sqlite_master AS m, pragma_table_info(m.name) AS p
    WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite\_%' ESCAPE '\'
      AND m.name <> '__diesel_schema_migrations'
    ORDER BY m.name, p.cid"#;

/// The tables of `current_schema()`: TestDb gives each PostgreSQL test a schema of its own
/// and points `search_path` at it. Read from `pg_catalog` by the schema's oid: the
/// `information_schema` views scan every schema of the database, and with the schemas of
/// parallel tests beside this one they once ran past the statement timeout in CI.
const POSTGRES_COLUMNS: &str = r#"
    SELECT c.relname::text AS table_name, a.attname::text AS column_name,
           format_type(a.atttypid, NULL)::text AS data_type, a.attnotnull AS not_null,
           COALESCE((
               SELECT k.position::int4
               FROM pg_catalog.pg_index AS i,
                    unnest(i.indkey) WITH ORDINALITY AS k(attnum, position)
               WHERE i.indrelid = c.oid AND i.indisprimary AND k.attnum = a.attnum
           ), 0) AS pk_position
    FROM pg_catalog.pg_class AS c
    JOIN pg_catalog.pg_attribute AS a
      ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
    WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'p')
      AND c.relname <> '__diesel_schema_migrations'
    ORDER BY c.relname, a.attnum"#;

fn read_live_schema(db: &TestDb) -> Schema {
    let mut conn = db.conn();
    let rows: Vec<LiveColumn> = match &mut *conn {
        DbConnection::Sqlite(c) => diesel::sql_query(SQLITE_COLUMNS).load(c),
        DbConnection::Postgres(c) => diesel::sql_query(POSTGRES_COLUMNS).load(c),
    }
    .expect("reading the live schema");
    let mut schema = Schema::new();
    let mut keys: BTreeMap<String, Vec<(i32, String)>> = BTreeMap::new();
    for row in rows {
        // SQLite: an INTEGER PRIMARY KEY is the rowid and never NULL, declared so or not.
        let rowid = !db.is_postgres() && row.pk_position > 0 && row.data_type.eq_ignore_ascii_case("INTEGER");
        let nullable = !row.not_null && !rowid;
        if row.pk_position > 0 {
            keys.entry(row.table_name.clone()).or_default().push((row.pk_position, row.column_name.clone()));
        }
        schema.entry(row.table_name).or_default().columns.push(Column {
            name: row.column_name,
            ty: row.data_type,
            nullable,
        });
    }
    for (table, mut key) in keys {
        key.sort();
        if let Some(table) = schema.get_mut(&table) {
            table.primary_key = key.into_iter().map(|(_, column)| column).collect();
        }
    }
    schema
}

/// The family of a diesel SQL type; `None` for one this check does not know yet.
fn diesel_family(ty: &str) -> Option<&'static str> {
    Some(match ty {
        "SmallInt" | "Int2" | "Integer" | "Int4" | "BigInt" | "Int8" => "integer",
        "Text" | "VarChar" => "text",
        "Bool" => "boolean",
        "Timestamp" => "timestamp",
        "Timestamptz" | "TimestamptzSqlite" => "timestamptz",
        "Date" => "date",
        "Time" => "time",
        "Float" | "Float4" | "Double" | "Float8" => "float",
        "Binary" | "Bytea" => "blob",
        "Numeric" => "numeric",
        _ => return None,
    })
}

/// The family of a type as SQLite reports it: the declared type, any spelling.
fn sqlite_family(declared: &str) -> Option<&'static str> {
    let declared = declared.to_ascii_uppercase();
    let base = declared.split('(').next().unwrap_or_default().trim();
    Some(match base {
        "BOOLEAN" | "BOOL" => "boolean",
        "TIMESTAMP" | "DATETIME" => "timestamp",
        "TIMESTAMPTZ" => "timestamptz",
        "DATE" => "date",
        "TIME" => "time",
        "REAL" | "FLOAT" | "DOUBLE" | "DOUBLE PRECISION" => "float",
        "BLOB" | "BINARY" => "blob",
        "NUMERIC" | "DECIMAL" => "numeric",
        _ if base.contains("INT") => "integer",
        _ if base.contains("CHAR") || base.contains("CLOB") || base.contains("TEXT") => "text",
        _ => return None,
    })
}

/// The family of a PostgreSQL type as `format_type(oid, NULL)` names it.
fn postgres_family(data_type: &str) -> Option<&'static str> {
    Some(match data_type {
        "smallint" | "integer" | "bigint" => "integer",
        "text" | "character varying" | "character" | "bpchar" => "text",
        "boolean" => "boolean",
        "timestamp without time zone" => "timestamp",
        "timestamp with time zone" => "timestamptz",
        "date" => "date",
        "time without time zone" => "time",
        "real" | "double precision" => "float",
        "bytea" => "blob",
        "numeric" => "numeric",
        _ => return None,
    })
}

/// PostgreSQL's binary protocol is width-exact: diesel cannot read an `integer` as `BigInt`.
fn postgres_exact(ty: &str) -> Option<&'static str> {
    Some(match ty {
        "SmallInt" | "Int2" => "smallint",
        "Integer" | "Int4" => "integer",
        "BigInt" | "Int8" => "bigint",
        "Float" | "Float4" => "real",
        "Double" | "Float8" => "double precision",
        _ => return None,
    })
}

fn describe(ty: &str, nullable: bool) -> String {
    if nullable { format!("Nullable<{ty}>") } else { format!("{ty} NOT NULL") }
}

/// Every difference between schema.rs (`declared`) and a live database, one line each.
fn compare_schema(backend: Backend, declared: &Schema, live: &Schema) -> Vec<String> {
    let mut problems = Vec::new();
    for name in declared.keys().filter(|name| !live.contains_key(*name)) {
        problems.push(format!(
            "table `{name}`: in schema.rs, but the migrations do not create it \
             (add a migration, or remove its table! block)"
        ));
    }
    for (name, table) in live.iter().filter(|(name, _)| !declared.contains_key(*name)) {
        let columns: Vec<&str> = table.columns.iter().map(|c| c.name.as_str()).collect();
        problems.push(format!(
            "table `{name}` ({}): created by the migrations, but missing from schema.rs \
             (add a table! block; diesel needs every table)",
            columns.join(", ")
        ));
    }
    for (name, want) in declared {
        let Some(have) = live.get(name) else { continue };
        for column in &want.columns {
            let at = format!("{name}.{}", column.name);
            let Some(found) = have.columns.iter().find(|c| c.name == column.name) else {
                problems.push(format!(
                    "{at}: schema.rs declares it ({}), but the migrated database has no such column \
                     (add it in a migration, or remove it from schema.rs)",
                    describe(&column.ty, column.nullable)
                ));
                continue;
            };
            if column.nullable != found.nullable {
                let (database, fix) = if column.nullable {
                    ("is NOT NULL", "drop the Nullable<..> in schema.rs, or the NOT NULL in a migration")
                } else {
                    (
                        "allows NULL",
                        "wrap it in Nullable<..> in schema.rs, or make it NOT NULL in a migration",
                    )
                };
                problems.push(format!(
                    "{at}: nullability differs: schema.rs says `{}`, but the database column (`{}`) {database} \
                     ({fix})",
                    if column.nullable { format!("Nullable<{}>", column.ty) } else { column.ty.clone() },
                    found.ty
                ));
            }
            let live_family = match backend {
                Backend::Sqlite => sqlite_family(&found.ty),
                Backend::Postgres => postgres_family(&found.ty),
            };
            match (diesel_family(&column.ty), live_family) {
                (None, _) => problems.push(format!(
                    "{at}: schema.rs type `{}` is unknown to this check (teach diesel_family about it)",
                    column.ty
                )),
                (_, None) => problems.push(format!(
                    "{at}: database type `{}` is unknown to this check (teach {}_family about it)",
                    found.ty,
                    backend.label().to_lowercase()
                )),
                (Some(want), Some(have)) if want != have => problems.push(format!(
                    "{at}: type differs: schema.rs says `{}` ({want}), the database column is `{}` ({have})",
                    column.ty, found.ty
                )),
                _ => {
                    if backend == Backend::Postgres
                        && let Some(exact) = postgres_exact(&column.ty)
                        && exact != found.ty
                    {
                        problems.push(format!(
                            "{at}: width differs: schema.rs says `{}`, which needs `{exact}` on PostgreSQL, \
                             but the database column is `{}`",
                            column.ty, found.ty
                        ));
                    }
                }
            }
        }
        for column in have.columns.iter().filter(|c| !want.columns.iter().any(|w| w.name == c.name)) {
            problems.push(format!(
                "{name}.{}: the database has it ({}{}), but schema.rs does not \
                 (add it to the table! block, or drop it in a migration)",
                column.name,
                column.ty,
                if column.nullable { ", nullable" } else { ", NOT NULL" }
            ));
        }
        if want.primary_key != have.primary_key {
            problems.push(format!(
                "{name}: primary key differs: schema.rs says ({}), the database has ({})",
                want.primary_key.join(", "),
                have.primary_key.join(", ")
            ));
        }
    }
    problems
}

// ---------------------------------------------------------------------------------------------
// 2. migrations/sqlite against migrations/postgres
// ---------------------------------------------------------------------------------------------

#[test]
fn migration_folders_mirror_each_other_by_content() {
    let folders = |dialect: &str| -> BTreeSet<String> {
        std::fs::read_dir(migrations_root().join(dialect))
            .unwrap_or_else(|e| panic!("cannot read migrations/{dialect}: {e}"))
            .map(|entry| entry.unwrap())
            .filter(|entry| entry.path().is_dir())
            .map(|entry| entry.file_name().to_string_lossy().into_owned())
            .collect()
    };
    let (sqlite, postgres) = (folders("sqlite"), folders("postgres"));
    assert!(!sqlite.is_empty(), "no migrations found in {}", migrations_root().display());
    let mut problems = Vec::new();
    for name in sqlite.difference(&postgres) {
        problems.push(format!("{name}: exists in migrations/sqlite only"));
    }
    for name in postgres.difference(&sqlite) {
        problems.push(format!("{name}: exists in migrations/postgres only"));
    }
    let mut statements_seen = 0;
    // The indexes the SQLite migrations made so far (a rebuild recreates them).
    let mut earlier_indexes = BTreeSet::new();
    for name in sqlite.intersection(&postgres) {
        for file in ["up.sql", "down.sql"] {
            let read = |dialect: &str| {
                std::fs::read_to_string(migrations_root().join(dialect).join(name).join(file))
            };
            match (read("sqlite"), read("postgres")) {
                (Ok(sqlite_sql), Ok(postgres_sql)) => {
                    let summary = summarize(&sqlite_sql);
                    statements_seen += summary.len();
                    let file_name = format!("{name}/{file}");
                    problems.extend(compare_migration(
                        &file_name,
                        &sqlite_sql,
                        &postgres_sql,
                        &earlier_indexes,
                    ));
                    if file == "up.sql" {
                        earlier_indexes.extend(summary.indexes_created);
                    }
                }
                (sqlite_sql, postgres_sql) => {
                    for (dialect, result) in [("sqlite", sqlite_sql), ("postgres", postgres_sql)] {
                        if let Err(e) = result {
                            problems
                                .push(format!("{name}: migrations/{dialect}/{name}/{file} is missing: {e}"));
                        }
                    }
                }
            }
        }
    }
    assert!(statements_seen > 0, "the migrations parsed to nothing: is the SQL parser broken?");
    assert!(
        problems.is_empty(),
        "migrations/sqlite and migrations/postgres have drifted apart ({} problems):\n  - {}\n\
         Each migration must make the same change in both dialects.",
        problems.len(),
        problems.join("\n  - ")
    );
}

/// What one migration file does, dialect details left out.
#[derive(Debug, Default)]
struct Summary {
    /// Table -> the column names of its `CREATE TABLE`.
    tables_created: BTreeMap<String, BTreeSet<String>>,
    tables_dropped: BTreeSet<String>,
    /// `[UNIQUE ]name ON table`.
    indexes_created: BTreeSet<String>,
    indexes_dropped: BTreeSet<String>,
    /// `table.column`.
    columns_added: BTreeSet<String>,
    columns_dropped: BTreeSet<String>,
    /// SQLite rebuilds: table -> the column names it has afterwards.
    rebuilt: BTreeMap<String, BTreeSet<String>>,
}

impl Summary {
    fn len(&self) -> usize {
        self.tables_created.len()
            + self.tables_dropped.len()
            + self.indexes_created.len()
            + self.indexes_dropped.len()
            + self.columns_added.len()
            + self.columns_dropped.len()
    }
}

/// Every difference between the two dialects' versions of one migration file.
/// `earlier_indexes`: the indexes earlier SQLite migrations made, which a rebuild recreates.
fn compare_migration(
    file: &str,
    sqlite_sql: &str,
    postgres_sql: &str,
    earlier_indexes: &BTreeSet<String>,
) -> Vec<String> {
    let (sqlite, postgres) = (summarize(sqlite_sql), summarize(postgres_sql));
    let mut problems = Vec::new();
    // What a SQLite rebuild of a table stands for on PostgreSQL (see the module docs).
    let rebuilt_table = |item: &str| {
        sqlite.rebuilt.iter().find(|(table, _)| {
            item.ends_with(&format!(" ON {table}")) || item.starts_with(&format!("{table}."))
        })
    };
    let covered_by_rebuild = |what: &str, item: &str, postgres_only: bool| match rebuilt_table(item) {
        None => false,
        Some((table, columns)) => {
            let column = item.strip_prefix(&format!("{table}.")).unwrap_or_default();
            match (what, postgres_only) {
                ("CREATE INDEX", false) => earlier_indexes.contains(item),
                ("ADD COLUMN", true) => columns.contains(column),
                ("DROP COLUMN", true) => !columns.contains(column),
                _ => false,
            }
        }
    };
    let mut sets = |what: &str, a: &BTreeSet<String>, b: &BTreeSet<String>| {
        for item in a.difference(b).filter(|item| !covered_by_rebuild(what, item, false)) {
            problems.push(format!("{file}: {what} `{item}` in sqlite only"));
        }
        for item in b.difference(a).filter(|item| !covered_by_rebuild(what, item, true)) {
            problems.push(format!("{file}: {what} `{item}` in postgres only"));
        }
    };
    let created = |s: &Summary| s.tables_created.keys().cloned().collect::<BTreeSet<_>>();
    sets("CREATE TABLE", &created(&sqlite), &created(&postgres));
    sets("DROP TABLE", &sqlite.tables_dropped, &postgres.tables_dropped);
    sets("CREATE INDEX", &sqlite.indexes_created, &postgres.indexes_created);
    sets("DROP INDEX", &sqlite.indexes_dropped, &postgres.indexes_dropped);
    sets("ADD COLUMN", &sqlite.columns_added, &postgres.columns_added);
    sets("DROP COLUMN", &sqlite.columns_dropped, &postgres.columns_dropped);
    for (table, sqlite_columns) in &sqlite.tables_created {
        let Some(postgres_columns) = postgres.tables_created.get(table) else { continue };
        for column in sqlite_columns.difference(postgres_columns) {
            problems.push(format!("{file}: CREATE TABLE {table}: column `{column}` in sqlite only"));
        }
        for column in postgres_columns.difference(sqlite_columns) {
            problems.push(format!("{file}: CREATE TABLE {table}: column `{column}` in postgres only"));
        }
    }
    problems
}

#[derive(Debug, Clone, PartialEq)]
enum Token {
    /// A keyword or identifier, lower-cased and unquoted.
    Word(String),
    /// A string literal (or dollar-quoted body); its content does not matter here.
    Literal,
    Symbol(char),
}

/// Splits SQL into words, literals and symbols; comments are dropped.
fn tokenize(sql: &str) -> Vec<Token> {
    let chars: Vec<char> = sql.chars().collect();
    let at = |i: usize| chars.get(i).copied().unwrap_or('\0');
    let is_word = |c: char| c.is_alphanumeric() || c == '_';
    let (mut tokens, mut i) = (Vec::new(), 0);
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
        } else if c == '-' && at(i + 1) == '-' {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && at(i + 1) == '*' {
            i += 2;
            while i < chars.len() && !(chars[i] == '*' && at(i + 1) == '/') {
                i += 1;
            }
            i += 2;
        } else if c == '\'' {
            // A doubled quote inside a literal closes and reopens it: same result.
            i += 1;
            while i < chars.len() && chars[i] != '\'' {
                i += 1;
            }
            i += 1;
            tokens.push(Token::Literal);
        } else if let Some(tag_len) = dollar_tag(&chars[i..]) {
            // PostgreSQL dollar quoting: $tag$ .. $tag$.
            let tag = &chars[i..i + tag_len];
            let close =
                (i + tag_len..chars.len()).find(|&j| chars[j..].starts_with(tag)).unwrap_or(chars.len());
            i = (close + tag_len).min(chars.len());
            tokens.push(Token::Literal);
        } else if c == '"' || c == '`' {
            let end = (i + 1..chars.len()).find(|&j| chars[j] == c).unwrap_or(chars.len());
            tokens.push(Token::Word(chars[i + 1..end].iter().collect::<String>().to_lowercase()));
            i = end + 1;
        } else if is_word(c) {
            let end = (i..chars.len()).find(|&j| !is_word(chars[j])).unwrap_or(chars.len());
            tokens.push(Token::Word(chars[i..end].iter().collect::<String>().to_lowercase()));
            i = end;
        } else {
            tokens.push(Token::Symbol(c));
            i += 1;
        }
    }
    tokens
}

/// The length of the `$tag$` (or `$$`) opening a dollar-quoted string at the start of `chars`.
fn dollar_tag(chars: &[char]) -> Option<usize> {
    if chars.first() != Some(&'$') || chars.get(1).is_some_and(char::is_ascii_digit) {
        return None; // not a dollar quote, or a `$1` parameter
    }
    let end = 1 + chars[1..].iter().take_while(|c| c.is_alphanumeric() || **c == '_').count();
    (chars.get(end) == Some(&'$')).then_some(end + 1)
}

/// A position in one statement's tokens.
struct Cursor<'a> {
    tokens: &'a [Token],
}

impl<'a> Cursor<'a> {
    fn eat(&mut self, word: &str) -> bool {
        self.eat_all(&[word])
    }

    /// Consumes the words in sequence, or nothing.
    fn eat_all(&mut self, words: &[&str]) -> bool {
        let matches = words.len() <= self.tokens.len()
            && words.iter().zip(self.tokens).all(|(w, t)| matches!(t, Token::Word(x) if x == w));
        if matches {
            self.tokens = &self.tokens[words.len()..];
        }
        matches
    }

    fn peek(&self) -> Option<&'a str> {
        match self.tokens.first() {
            Some(Token::Word(w)) => Some(w),
            _ => None,
        }
    }

    /// A possibly schema-qualified name (`public.users` -> `users`).
    fn name(&mut self) -> Option<String> {
        let mut name = self.peek()?.to_owned();
        self.tokens = &self.tokens[1..];
        while self.tokens.first() == Some(&Token::Symbol('.')) {
            let Some(Token::Word(part)) = self.tokens.get(1) else { break };
            name.clone_from(part);
            self.tokens = &self.tokens[2..];
        }
        Some(name)
    }

    /// Comma-separated names (`DROP TABLE a, b`).
    fn names(&mut self) -> Vec<String> {
        let mut names = Vec::new();
        while let Some(name) = self.name() {
            names.push(name);
            if self.tokens.first() != Some(&Token::Symbol(',')) {
                break;
            }
            self.tokens = &self.tokens[1..];
        }
        names
    }
}

/// Words that start a table constraint rather than a column definition.
const CONSTRAINT_WORDS: [&str; 7] =
    ["constraint", "primary", "unique", "check", "foreign", "exclude", "like"];

/// Splits tokens on top-level commas (outside parentheses).
fn split_commas(tokens: &[Token]) -> Vec<&[Token]> {
    let (mut parts, mut depth, mut start) = (Vec::new(), 0, 0);
    for (i, token) in tokens.iter().enumerate() {
        match token {
            Token::Symbol('(') => depth += 1,
            Token::Symbol(')') => depth -= 1,
            Token::Symbol(',') if depth == 0 => {
                parts.push(&tokens[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&tokens[start..]);
    parts
}

/// The column names of a `( definitions )` list.
fn column_names(tokens: &[Token]) -> BTreeSet<String> {
    let inner = match (tokens.first(), tokens.iter().rposition(|t| *t == Token::Symbol(')'))) {
        (Some(Token::Symbol('(')), Some(end)) => &tokens[1..end],
        _ => return BTreeSet::new(), // CREATE TABLE .. AS SELECT
    };
    split_commas(inner)
        .into_iter()
        .filter_map(|definition| match definition.first() {
            Some(Token::Word(word)) if !CONSTRAINT_WORDS.contains(&word.as_str()) => Some(word.clone()),
            _ => None,
        })
        .collect()
}

/// The tables, indexes and columns that one migration file creates and drops.
fn summarize(sql: &str) -> Summary {
    let tokens = tokenize(sql);
    let mut summary = Summary::default();
    let mut renames = Vec::new();
    for statement in tokens.split(|t| *t == Token::Symbol(';')) {
        let mut c = Cursor { tokens: statement };
        if c.eat("create") {
            let _ = c.eat("temp") || c.eat("temporary") || c.eat("unlogged");
            let unique = c.eat("unique");
            if c.eat("table") {
                c.eat_all(&["if", "not", "exists"]);
                if let Some(table) = c.name() {
                    summary.tables_created.insert(table, column_names(c.tokens));
                }
            } else if c.eat("index") {
                c.eat("concurrently");
                c.eat_all(&["if", "not", "exists"]);
                let index = if c.peek() == Some("on") {
                    "(unnamed)".to_owned()
                } else {
                    c.name().unwrap_or_default()
                };
                c.eat("on");
                c.eat("only");
                let table = c.name().unwrap_or_default();
                summary
                    .indexes_created
                    .insert(format!("{}{index} ON {table}", if unique { "UNIQUE " } else { "" }));
            }
        } else if c.eat("drop") {
            if c.eat("table") {
                c.eat_all(&["if", "exists"]);
                summary.tables_dropped.extend(c.names());
            } else if c.eat("index") {
                c.eat("concurrently");
                c.eat_all(&["if", "exists"]);
                summary.indexes_dropped.extend(c.names());
            }
        } else if c.eat_all(&["alter", "table"]) {
            c.eat_all(&["if", "exists"]);
            c.eat("only");
            let table = c.name().unwrap_or_default();
            if c.eat_all(&["rename", "to"]) {
                renames.extend(c.name().map(|to| (table, to)));
                continue;
            }
            for action in split_commas(c.tokens) {
                let mut a = Cursor { tokens: action };
                let target = if a.eat("add") {
                    &mut summary.columns_added
                } else if a.eat("drop") {
                    &mut summary.columns_dropped
                } else {
                    continue; // RENAME, ALTER COLUMN ..: not compared
                };
                a.eat("column");
                let _ = a.eat_all(&["if", "not", "exists"]) || a.eat_all(&["if", "exists"]);
                if let Some(column) = a.peek().filter(|w| !CONSTRAINT_WORDS.contains(w)) {
                    target.insert(format!("{table}.{column}"));
                }
            }
        }
    }
    // `t_new` created, `t` dropped, `t_new` renamed to `t`: a rebuild of `t`.
    for (from, to) in renames {
        if summary.tables_dropped.contains(&to)
            && let Some(columns) = summary.tables_created.remove(&from)
        {
            summary.tables_dropped.remove(&to);
            summary.rebuilt.insert(to, columns);
        }
    }
    summary
}

// ---------------------------------------------------------------------------------------------
// 3. Proof that the checks catch drift, on broken copies (no real file is touched)
// ---------------------------------------------------------------------------------------------

/// `text` with `from` replaced by `to`, which must occur (else the test would prove nothing).
fn broken(text: &str, from: &str, to: &str) -> String {
    assert!(text.contains(from), "the negative test needs {from:?} in the text; update it");
    text.replacen(from, to, 1)
}

both_backends!(schema_check_catches_drift,);

fn schema_check_catches_drift(db: TestDb) {
    let backend = Backend::of(&db);
    let live = read_live_schema(&db);
    assert!(compare_schema(backend, &parse_schema_rs(SCHEMA_RS), &live).is_empty());

    let schema_rs = broken(SCHEMA_RS, "users (id) {\n", "users (id) {\n        fake_column -> Text,\n");
    let schema_rs = broken(&schema_rs, "profile_picture -> Nullable<Text>,", "profile_picture -> Text,");
    let schema_rs = broken(&schema_rs, "is_pro -> Bool,", "is_pro -> Timestamp,");
    let schema_rs = broken(&schema_rs, "sessions (token_hash) {", "sessions (user_id) {");
    // Harmless on SQLite (every integer is 64-bit there), a decoding error on PostgreSQL.
    let schema_rs = broken(
        &schema_rs,
        "credits -> Integer,\n        created_at",
        "credits -> BigInt,\n        created_at",
    );
    let problems = compare_schema(backend, &parse_schema_rs(&schema_rs), &live);
    let report = problems.join("\n");
    eprintln!("{} drift found in a broken copy of schema.rs:\n{report}", backend.label());
    let mut expected = vec![
        "users.fake_column: schema.rs declares it (Text NOT NULL), but the migrated database has no such column",
        "users.profile_picture: nullability differs: schema.rs says `Text`, but the database column \
         (`text`) allows NULL",
        "users.is_pro: type differs: schema.rs says `Timestamp` (timestamp), the database column is `boolean`",
        "sessions: primary key differs: schema.rs says (user_id), the database has (token_hash)",
    ];
    if backend == Backend::Postgres {
        expected.push(
            "users.credits: width differs: schema.rs says `BigInt`, which needs `bigint` on PostgreSQL",
        );
    }
    assert_eq!(problems.len(), expected.len(), "{report}");
    for expected in expected {
        // SQLite reports the declared type as written (`BOOLEAN`), PostgreSQL in lower case.
        assert!(
            report.to_lowercase().contains(&expected.to_lowercase()),
            "expected {expected:?} in:\n{report}"
        );
    }

    // The other direction: a column and a whole table that only the database has.
    let schema_rs =
        broken(SCHEMA_RS, "        ip -> Nullable<Text>,\n        succeeded", "        succeeded");
    let mut declared = parse_schema_rs(&schema_rs);
    declared.remove("webhook_events");
    let report = compare_schema(backend, &declared, &live).join("\n");
    assert!(report.contains("login_attempts.ip: the database has it"), "{report}");
    assert!(
        report.contains(
            "table `webhook_events` (event_id, event_type, received_at): created by the migrations"
        ),
        "{report}"
    );
}

#[test]
fn migration_check_catches_a_column_an_index_and_a_table_only_one_dialect_has() {
    let root = migrations_root();
    let read = |dialect: &str| {
        std::fs::read_to_string(root.join(dialect).join("2026-11-22-000001_create_accounts/up.sql")).unwrap()
    };
    let (sqlite_sql, postgres_sql) = (read("sqlite"), read("postgres"));
    assert_eq!(
        compare_migration("accounts/up.sql", &sqlite_sql, &postgres_sql, &BTreeSet::new()),
        Vec::<String>::new()
    );

    let postgres_sql =
        broken(&postgres_sql, "CREATE TABLE users (\n", "CREATE TABLE users (\n    fake_column TEXT,\n");
    let postgres_sql = broken(
        &postgres_sql,
        "CREATE INDEX sessions_user_id_idx",
        "CREATE UNIQUE INDEX sessions_user_id_idx",
    );
    let sqlite_sql = format!(
        "{sqlite_sql}\nALTER TABLE users ADD COLUMN nickname TEXT;\nCREATE TABLE extra (id INTEGER);\n"
    );
    let problems = compare_migration("accounts/up.sql", &sqlite_sql, &postgres_sql, &BTreeSet::new());
    let report = problems.join("\n");
    eprintln!("drift found in broken copies of the accounts migration:\n{report}");
    assert_eq!(problems.len(), 5, "{report}");
    for expected in [
        "accounts/up.sql: CREATE TABLE users: column `fake_column` in postgres only",
        "accounts/up.sql: CREATE INDEX `sessions_user_id_idx ON sessions` in sqlite only",
        "accounts/up.sql: CREATE INDEX `UNIQUE sessions_user_id_idx ON sessions` in postgres only",
        "accounts/up.sql: ADD COLUMN `users.nickname` in sqlite only",
        "accounts/up.sql: CREATE TABLE `extra` in sqlite only",
    ] {
        assert!(report.contains(expected), "expected {expected:?} in:\n{report}");
    }
}

#[test]
fn sql_summaries_ignore_dialect_details() {
    let sqlite = "CREATE TABLE IF NOT EXISTS \"t\" (id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, \
                  note TEXT DEFAULT 'a;b', CHECK (id > 0)); -- a comment; with a semicolon\n\
                  create unique index t_note ON t (lower(note));\n\
                  ALTER TABLE t ADD COLUMN extra INTEGER;\n\
                  DROP TABLE IF EXISTS old_t;";
    let postgres = "CREATE TABLE public.t (id BIGSERIAL PRIMARY KEY, note TEXT DEFAULT $$a;b$$, \
                    CONSTRAINT t_id CHECK (id > 0));\n\
                    CREATE UNIQUE INDEX IF NOT EXISTS t_note ON ONLY t (lower(note));\n\
                    ALTER TABLE IF EXISTS t ADD extra BIGINT;\n\
                    /* block comment; */ DROP TABLE old_t CASCADE;";
    assert_eq!(compare_migration("example", sqlite, postgres, &BTreeSet::new()), Vec::<String>::new());
    let summary = summarize(sqlite);
    assert_eq!(summary.tables_created["t"], BTreeSet::from(["id".to_owned(), "note".to_owned()]));
    assert_eq!(summary.indexes_created, BTreeSet::from(["UNIQUE t_note ON t".to_owned()]));
    assert_eq!(summary.columns_added, BTreeSet::from(["t.extra".to_owned()]));
    assert_eq!(summary.tables_dropped, BTreeSet::from(["old_t".to_owned()]));
}

#[test]
fn a_sqlite_rebuild_stands_for_postgres_alter_table_and_must_match_it() {
    let root = migrations_root();
    let read = |dialect: &str| {
        std::fs::read_to_string(root.join(dialect).join("2026-11-27-000020_pro_subscriptions/up.sql"))
            .unwrap()
    };
    let (sqlite_sql, postgres_sql) = (read("sqlite"), read("postgres"));
    let earlier = BTreeSet::from(["payments_user_id_idx ON payments".to_owned()]);
    assert_eq!(summarize(&sqlite_sql).rebuilt.keys().collect::<Vec<_>>(), ["payments"]);
    assert_eq!(compare_migration("pro/up.sql", &sqlite_sql, &postgres_sql, &earlier), Vec::<String>::new());

    // The rebuild forgets the column PostgreSQL adds; PostgreSQL forgets an index it creates.
    let sqlite_sql = broken(
        &sqlite_sql,
        "    confirmed_at TIMESTAMP,\n    subscription_id TEXT\n",
        "    confirmed_at TIMESTAMP\n",
    );
    let postgres_sql =
        broken(&postgres_sql, "CREATE INDEX payments_subscription_idx ON payments (subscription_id);", "");
    let problems = compare_migration("pro/up.sql", &sqlite_sql, &postgres_sql, &earlier);
    assert_eq!(
        problems,
        [
            "pro/up.sql: CREATE INDEX `payments_subscription_idx ON payments` in sqlite only",
            "pro/up.sql: ADD COLUMN `payments.subscription_id` in postgres only",
        ]
        .map(str::to_owned)
        .to_vec(),
    );
}
