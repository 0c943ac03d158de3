//! The JSON Schema of each document, as published in docs/schema/.

use schemars::{JsonSchema, Schema, SchemaGenerator};

use crate::{
    BatchLine, CheckArguments, CheckDocument, CheckToolResult, CompactCheck, DiffArguments,
    DiffDocument, ExpectFile, ManifestEntry, ParseArguments, ParseDocument, RecordDocument,
    SignedRecord, SwebenchReport,
};

/// Every document with a published schema: its file name under
/// docs/schema/ (without `.json`).
pub const DOCUMENTS: [&str; 12] = [
    "check",
    "parse",
    "diff",
    "swebench-report",
    "check-compact",
    "record",
    "batch-line",
    "batch-manifest",
    "expect",
    "mcp-check-arguments",
    "mcp-parse-arguments",
    "mcp-diff-arguments",
];

/// The JSON Schema of the document `name` (one of [`DOCUMENTS`]), or
/// `None` for a name that is not one.
pub fn schema_of(name: &str) -> Option<Schema> {
    fn of<T: JsonSchema>() -> Schema {
        SchemaGenerator::default().into_root_schema_for::<T>()
    }
    Some(match name {
        "check" => of::<CheckDocument<'static>>(),
        "parse" => of::<ParseDocument<'static>>(),
        "diff" => of::<DiffDocument<'static>>(),
        "swebench-report" => of::<SwebenchReport>(),
        "check-compact" => of::<CompactCheck>(),
        "record" => of::<SignedRecord<RecordDocument<'static>>>(),
        "batch-line" => of::<BatchLine<'static>>(),
        "batch-manifest" => of::<ManifestEntry>(),
        "expect" => of::<ExpectFile>(),
        "mcp-check-arguments" => tool_input_schema("check")?,
        "mcp-parse-arguments" => tool_input_schema("parse")?,
        "mcp-diff-arguments" => tool_input_schema("diff")?,
        _ => return None,
    })
}

/// The input schema of the `testgate mcp` tool `tool` (`check`, `parse`
/// or `diff`), as `tools/list` gives it: its arguments' type, every
/// definition inlined (some MCP clients do not follow `$ref`) and an
/// optional argument's type without `null`, or `None` for a tool there is
/// not.
pub fn tool_input_schema(tool: &str) -> Option<Schema> {
    fn of<T: JsonSchema>() -> Schema {
        let mut settings = schemars::generate::SchemaSettings::draft2020_12();
        settings.inline_subschemas = true;
        let mut schema = SchemaGenerator::new(settings).into_root_schema_for::<T>();
        if let Some(serde_json::Value::Object(properties)) = schema.get_mut("properties") {
            properties.values_mut().for_each(without_null);
        }
        // An input schema is a tool's own, not a document with a version.
        schema.remove("$schema");
        schema
    }
    Some(match tool {
        "check" => of::<CheckArguments>(),
        "parse" => of::<ParseArguments>(),
        "diff" => of::<DiffArguments>(),
        _ => return None,
    })
}

/// An argument's schema without the `null` its `Option` adds: an argument
/// not given is left out (null is read as left out too, but the schema
/// offers only the value).
fn without_null(argument: &mut serde_json::Value) {
    use serde_json::Value;
    let Value::Object(schema) = argument else {
        return;
    };
    if let Some(Value::Array(types)) = schema.get_mut("type") {
        types.retain(|t| t != "null");
        if let [only] = types.as_slice() {
            let only = only.clone();
            schema.insert("type".to_owned(), only);
        }
    }
    if let Some(Value::Array(options)) = schema.get_mut("anyOf") {
        options.retain(|o| o.get("type").is_none_or(|t| t != "null"));
        if let [Value::Object(only)] = options.as_slice() {
            let only = only.clone();
            schema.remove("anyOf");
            for (key, value) in only {
                // The argument's own description is the one kept.
                schema.entry(key).or_insert(value);
            }
        }
    }
}

/// The JSON Schema of the `testgate mcp` `check` tool's structured result
/// (its `outputSchema`): the compact form or the whole check document,
/// with `"type": "object"` at the root as MCP asks of an output schema.
pub fn check_tool_schema() -> Schema {
    let mut schema = SchemaGenerator::default().into_root_schema_for::<CheckToolResult<'static>>();
    schema.insert("type".to_owned(), "object".into());
    schema
}
