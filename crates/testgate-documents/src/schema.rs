//! The JSON Schema of each document, as published in docs/schema/.

use schemars::{JsonSchema, Schema, SchemaGenerator};

use crate::{
    CheckDocument, CheckToolResult, CompactCheck, DiffDocument, ParseDocument, SwebenchReport,
};

/// Every document with a published schema: its file name under
/// docs/schema/ (without `.json`).
pub const DOCUMENTS: [&str; 5] = ["check", "parse", "diff", "swebench-report", "check-compact"];

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
        _ => return None,
    })
}

/// The JSON Schema of the `testgate mcp` `check` tool's structured result
/// (its `outputSchema`): the compact form or the whole check document,
/// with `"type": "object"` at the root as MCP asks of an output schema.
pub fn check_tool_schema() -> Schema {
    let mut schema = SchemaGenerator::default().into_root_schema_for::<CheckToolResult<'static>>();
    schema.insert("type".to_owned(), "object".into());
    schema
}
