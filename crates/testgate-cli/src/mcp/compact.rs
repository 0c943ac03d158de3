//! The `check` tool's result: compact by default, the whole document with
//! `full: true`, and the output schema that says both.

use std::sync::Arc;

use rmcp::model::{CallToolResult, JsonObject, Tool};
use serde_json::{Value, json};
use testgate_documents::{CheckToolResult, CompactCheck};

use crate::check::Checked;

/// The `full` argument taken out of the `check` tool's `arguments` (the
/// rest goes to `check`'s own options), or why it is not a boolean.
pub(super) fn take_full(
    arguments: Option<&JsonObject>,
) -> Result<(bool, Option<JsonObject>), String> {
    let Some(arguments) = arguments else {
        return Ok((false, None));
    };
    let mut rest = arguments.clone();
    let full = match rest.remove("full") {
        None | Some(Value::Null) => false,
        Some(Value::Bool(full)) => full,
        Some(other) => {
            return Err(format!(
                "`full` is {other}: give true for the whole check document, false (the default) \
                 for the compact result"
            ));
        }
    };
    Ok((full, Some(rest)))
}

/// The result of a check: the one-line `summary`, then the compact form
/// (or with `full`, `check --json`'s document) as JSON text and as
/// structured content.
pub(super) fn check_result(checked: &Checked, full: bool, summary: String) -> CallToolResult {
    let document = checked.document();
    let result = if full {
        CheckToolResult::Full(Box::new(document))
    } else {
        CheckToolResult::Compact(Box::new(CompactCheck::of(&document)))
    };
    super::document_result(&result, summary)
}

/// Gives the `check` tool its `full` argument and its output schema.
pub(super) fn describe(tool: Tool) -> Tool {
    let mut tool = tool;
    let mut input = (*tool.input_schema).clone();
    if let Some(Value::Object(properties)) = input.get_mut("properties") {
        properties.insert(
            "full".to_owned(),
            json!({"type": "boolean", "description": "Return `testgate check --json`'s whole \
                document (every test's outcome in every attempt, the attempts' details: often \
                100+ KB) instead of the compact result (verdict, cause, failing tests with the \
                first line of their message, a grading summary, the attempts in a line each). \
                Default false. The `diff` tool needs whole documents."}),
        );
    }
    tool.input_schema = Arc::new(input);
    let schema = testgate_documents::check_tool_schema();
    if let Value::Object(schema) = Value::from(schema) {
        tool.output_schema = Some(Arc::new(schema));
    }
    tool
}

#[cfg(test)]
mod tests {
    use super::take_full;
    use serde_json::json;

    #[test]
    fn full_is_taken_out_and_must_be_a_boolean() {
        let arguments = |v: serde_json::Value| v.as_object().cloned();
        let (full, rest) =
            take_full(arguments(json!({"workspace": "w", "full": true})).as_ref()).unwrap();
        assert!(full);
        assert_eq!(rest, arguments(json!({"workspace": "w"})));
        let (full, _) = take_full(arguments(json!({"workspace": "w"})).as_ref()).unwrap();
        assert!(!full);
        let why = take_full(arguments(json!({"full": "yes"})).as_ref()).unwrap_err();
        assert!(why.starts_with("`full` is \"yes\""), "{why}");
    }

    #[test]
    fn the_output_schema_is_an_object_schema_with_both_forms() {
        let schema = serde_json::Value::from(testgate_documents::check_tool_schema());
        assert_eq!(schema["type"], "object");
        assert_eq!(
            schema["anyOf"].as_array().map(Vec::len),
            Some(2),
            "{schema:#}"
        );
    }
}
