//! The answers every endpoint can give whatever it does, added to the OpenAPI document in
//! one place so it says what the server really answers (checked by schemathesis in `make
//! test`): the middleware's and extractors' answers are not in any handler's
//! `#[utoipa::path]`.
//!
//! - a write (`POST`): 403 when the CSRF rule refuses it (a cross-site `Origin`, or a body
//!   that is not JSON);
//! - a JSON body: 400 when it is not valid JSON of the right shape, 413 when it is larger
//!   than the limit; path or query parameters: 400 when they do not parse;
//! - a call that needs a session: 401;
//! - every call: 503 when the database does not answer (with `Retry-After`).
//!
//! Answers a handler documents itself are kept as they are.
//!
//! It also states the one rule every request's text follows, which the extractors enforce
//! rather than any DTO ([`state_plain_text`]), and writes a struct flattened inline into a
//! DTO as the DTO's own fields ([`merge_inline_flattened`]).

use std::collections::BTreeSet;

use utoipa::openapi::path::{Operation, PathItem};
use utoipa::openapi::schema::{AdditionalProperties, AllOf, ArrayItems, Object, Schema, SchemaType, Type};
use utoipa::openapi::{ContentBuilder, OpenApi, Ref, RefOr, Response, ResponseBuilder};

/// Text without the control characters `ValidJson` and `ValidQuery` refuse in every string
/// and object key (`setupiq_core::validation::has_control_characters`: all but tab, line
/// feed and carriage return).
pub const PLAIN_TEXT: &str = "^[^\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F]*$";

/// Adds the common answers to every operation of `doc` that lacks them.
pub fn add_common_answers(doc: &mut OpenApi) {
    for (path, item) in doc.paths.paths.iter_mut() {
        let is_health = path == "/_api/health";
        if let Some(operation) = item.post.as_mut() {
            add(operation, "403", "Refused: a cross-site or non-JSON write (CSRF protection)");
            add_for(operation, is_health);
        }
        if let Some(operation) = item.get.as_mut() {
            add_for(operation, is_health);
        }
    }
}

fn add_for(operation: &mut Operation, is_health: bool) {
    if operation.request_body.is_some() {
        add(operation, "400", "Invalid request body");
        add(operation, "413", "The request body is too large");
    }
    if operation.parameters.as_ref().is_some_and(|parameters| !parameters.is_empty()) {
        add(operation, "400", "Invalid path or query parameters");
    }
    let needs_session = operation.security.as_ref().is_some_and(|requirements| !requirements.is_empty());
    if needs_session {
        add(operation, "401", "Not signed in");
    }
    if !is_health {
        add(operation, "503", "The service is temporarily unavailable (see `Retry-After`)");
    }
}

fn add(operation: &mut Operation, status: &str, description: &str) {
    operation.responses.responses.entry(status.to_owned()).or_insert_with(|| error_response(description));
}

fn error_response(description: &str) -> RefOr<Response> {
    let body = ContentBuilder::new().schema(Some(Ref::from_schema_name("ErrorBody"))).build();
    RefOr::T(ResponseBuilder::new().description(description).content("application/json", body).build())
}

/// States [`PLAIN_TEXT`] on every string a request body or parameter carries that no
/// pattern, format or enum narrows already (a DTO's own pattern excludes control characters
/// itself); request objects that ignore fields they do not name are stated to take none.
pub fn state_plain_text(doc: &mut OpenApi) {
    let mut named = Vec::new();
    for item in doc.paths.paths.values_mut() {
        for operation in operations(item) {
            for parameter in operation.parameters.iter_mut().flatten() {
                if let Some(schema) = parameter.schema.as_mut() {
                    plain(schema, &mut named);
                }
            }
            for content in operation.request_body.iter_mut().flat_map(|body| body.content.values_mut()) {
                if let Some(schema) = content.schema.as_mut() {
                    plain(schema, &mut named);
                }
            }
        }
    }
    let mut done = BTreeSet::new();
    while let Some(name) = named.pop() {
        if done.insert(name.clone())
            && let Some(schema) = doc.components.as_mut().and_then(|c| c.schemas.get_mut(&name))
        {
            plain(schema, &mut named);
        }
    }
}

/// Writes each component that flattens structs inline (`#[serde(flatten)]` with
/// `#[schema(inline)]`, e.g. a post's `PostText`) as the one object a client receives:
/// utoipa states a flattened field as `allOf` its parts, which a client's generated types
/// read as an intersection. A flattened component named by reference (`$ref`) is kept as
/// `allOf`.
pub fn merge_inline_flattened(doc: &mut OpenApi) {
    for schema in doc.components.iter_mut().flat_map(|c| c.schemas.values_mut()) {
        if let RefOr::T(Schema::AllOf(all)) = schema
            && let Some(object) = merged(all)
        {
            *schema = RefOr::T(Schema::Object(object));
        }
    }
}

/// The parts of `all` as one object, when each is an inline object.
fn merged(all: &AllOf) -> Option<Object> {
    let parts: Vec<&Object> = all
        .items
        .iter()
        .map(|item| match item {
            RefOr::T(Schema::Object(object)) if object.schema_type == SchemaType::Type(Type::Object) => {
                Some(object)
            }
            _ => None,
        })
        .collect::<Option<_>>()?;
    // utoipa lists the flattened parts first and the struct's own fields last.
    let (own, flattened) = parts.split_last()?;
    let mut object = (*own).clone();
    for part in flattened {
        object.properties.extend(part.properties.clone());
        object.required.extend(part.required.iter().filter(|name| !own.required.contains(name)).cloned());
    }
    object.description = object.description.or_else(|| all.description.clone());
    object.title = object.title.or_else(|| all.title.clone());
    Some(object)
}

fn operations(item: &mut PathItem) -> impl Iterator<Item = &mut Operation> {
    [&mut item.get, &mut item.post, &mut item.put, &mut item.patch, &mut item.delete]
        .into_iter()
        .filter_map(Option::as_mut)
}

/// Adds the rule inside `schema`; the components it names are pushed onto `named`.
fn plain(schema: &mut RefOr<Schema>, named: &mut Vec<String>) {
    match schema {
        RefOr::Ref(reference) => {
            named.extend(reference.ref_location.rsplit('/').next().map(str::to_owned));
        }
        RefOr::T(Schema::Object(object)) => plain_object(object, named),
        RefOr::T(Schema::Array(array)) => {
            if let ArrayItems::RefOrSchema(items) = &mut array.items {
                plain(items, named);
            }
        }
        RefOr::T(Schema::OneOf(one)) => one.items.iter_mut().for_each(|item| plain(item, named)),
        RefOr::T(Schema::AllOf(all)) => all.items.iter_mut().for_each(|item| plain(item, named)),
        RefOr::T(Schema::AnyOf(any)) => any.items.iter_mut().for_each(|item| plain(item, named)),
        RefOr::T(_) => {}
    }
}

fn plain_object(object: &mut Object, named: &mut Vec<String>) {
    let is = |wanted: Type| match &object.schema_type {
        SchemaType::Type(one) => *one == wanted,
        SchemaType::Array(types) => types.contains(&wanted),
        SchemaType::AnyValue => false,
    };
    if is(Type::String) && object.pattern.is_none() && object.format.is_none() && object.enum_values.is_none()
    {
        object.pattern = Some(PLAIN_TEXT.to_owned());
    }
    let takes_other_fields = is(Type::Object) && object.additional_properties.is_none();
    object.properties.values_mut().for_each(|property| plain(property, named));
    if let Some(AdditionalProperties::RefOr(values)) = object.additional_properties.as_deref_mut() {
        plain(values, named);
    }
    if takes_other_fields {
        // Ignored by the handler, yet their texts are checked like any other: a client has
        // no reason to send them, so the document names none.
        object.additional_properties = Some(Box::new(AdditionalProperties::FreeForm(false)));
    }
}

#[cfg(test)]
mod tests {
    use serde::Serialize;
    use serde_json::{Value, json};
    use utoipa::{OpenApi, ToSchema};

    use super::merge_inline_flattened;

    /// A part flattened into the DTOs below.
    #[derive(Serialize, ToSchema)]
    struct Texts {
        title: Option<String>,
    }

    /// Flattens its part inline.
    #[derive(Serialize, ToSchema)]
    #[serde(rename_all = "camelCase")]
    struct Inline {
        id: i64,
        #[serde(flatten)]
        #[schema(inline)]
        texts: Texts,
    }

    /// Flattens its part by reference.
    #[derive(Serialize, ToSchema)]
    struct ByReference {
        id: i64,
        #[serde(flatten)]
        texts: Texts,
    }

    #[derive(OpenApi)]
    #[openapi(components(schemas(Inline, ByReference, Texts)))]
    struct Doc;

    fn schema(name: &str) -> Value {
        let mut doc = Doc::openapi();
        merge_inline_flattened(&mut doc);
        serde_json::to_value(&doc.components.unwrap().schemas[name]).unwrap()
    }

    #[test]
    fn an_inline_flattened_part_is_written_as_the_dtos_own_fields() {
        assert_eq!(
            schema("Inline"),
            json!({
                "type": "object",
                "description": "Flattens its part inline.",
                "required": ["id"],
                "properties": {
                    "id": {"type": "integer", "format": "int64"},
                    "title": {"type": ["string", "null"]},
                },
            })
        );
    }

    #[test]
    fn a_part_flattened_by_reference_stays_all_of() {
        let by_reference = schema("ByReference");
        assert_eq!(by_reference["allOf"][0], json!({"$ref": "#/components/schemas/Texts"}));
        assert_eq!(by_reference["allOf"][1]["required"], json!(["id"]));
    }
}
