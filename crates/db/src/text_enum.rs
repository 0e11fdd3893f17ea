//! States stored as text (a payment's status, an analysis's input type, a product's tier):
//! [`text_enum!`] declares the enum and its one mapping to the database text, and makes it
//! a diesel `Text` value, so rows and queries carry the enum, never a bare string.

/// A text column's value that is not one of the enum's names (a row written by something
/// else than this code).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown {kind} in the database: {value:?}")]
pub struct UnknownText {
    pub kind: &'static str,
    pub value: String,
}

/// Declares a fieldless enum stored as text:
///
/// ```
/// setupiq_db::text_enum! {
///     /// Where a payment goes.
///     pub enum Provider { Stripe = "stripe", TestMode = "test" }
/// }
/// assert_eq!(Provider::TestMode.as_str(), "test");
/// assert_eq!("stripe".parse::<Provider>(), Ok(Provider::Stripe));
/// ```
///
/// The enum gets `as_str` (the stored text), `FromStr`, `Display`, and diesel's `ToSql` /
/// `FromSql` for `Text` on every backend, so it can be a field of an `Insertable` or
/// `Queryable` row and the argument of `.eq(..)`. Extra attributes (`#[derive(Serialize,
/// ToSchema)]`, `#[serde(..)]`) go before `enum`; the calling crate needs `diesel` as a
/// dependency (every domain crate has it). Text in the database that is not one of the
/// names fails the read with [`UnknownText`] instead of being guessed.
#[macro_export]
macro_rules! text_enum {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident {
            $( $(#[$variant_meta:meta])* $variant:ident = $text:literal ),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, diesel::AsExpression, diesel::FromSqlRow)]
        #[diesel(sql_type = diesel::sql_types::Text)]
        $vis enum $name {
            $( $(#[$variant_meta])* $variant ),+
        }

        impl $name {
            /// The text stored in the database.
            pub fn as_str(self) -> &'static str {
                match self {
                    $( $name::$variant => $text ),+
                }
            }
        }

        impl ::std::str::FromStr for $name {
            type Err = $crate::text_enum::UnknownText;

            fn from_str(text: &str) -> Result<Self, Self::Err> {
                match text {
                    $( $text => Ok($name::$variant), )+
                    other => Err($crate::text_enum::UnknownText { kind: stringify!($name), value: other.to_owned() }),
                }
            }
        }

        impl ::std::fmt::Display for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl<DB> diesel::serialize::ToSql<diesel::sql_types::Text, DB> for $name
        where
            DB: diesel::backend::Backend,
            str: diesel::serialize::ToSql<diesel::sql_types::Text, DB>,
        {
            fn to_sql<'b>(&'b self, out: &mut diesel::serialize::Output<'b, '_, DB>) -> diesel::serialize::Result {
                <str as diesel::serialize::ToSql<diesel::sql_types::Text, DB>>::to_sql(self.as_str(), out)
            }
        }

        impl<DB> diesel::deserialize::FromSql<diesel::sql_types::Text, DB> for $name
        where
            DB: diesel::backend::Backend,
            String: diesel::deserialize::FromSql<diesel::sql_types::Text, DB>,
        {
            fn from_sql(bytes: DB::RawValue<'_>) -> diesel::deserialize::Result<Self> {
                let text = <String as diesel::deserialize::FromSql<diesel::sql_types::Text, DB>>::from_sql(bytes)?;
                Ok(text.parse::<$name>()?)
            }
        }
    };
}
