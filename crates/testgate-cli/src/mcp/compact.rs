//! The `check` tool's result: compact by default, the whole document with
//! `full: true`, and the output schema that says both.

use std::sync::Arc;

use rmcp::model::{CallToolResult, Tool};
use serde_json::Value;
use testgate_documents::{CheckToolResult, CompactCheck};

use crate::check::Checked;

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

/// Gives the `check` tool its output schema.
pub(super) fn describe(tool: Tool) -> Tool {
    let mut tool = tool;
    let schema = testgate_documents::check_tool_schema();
    if let Value::Object(schema) = Value::from(schema) {
        tool.output_schema = Some(Arc::new(schema));
    }
    tool
}

#[cfg(test)]
mod tests {
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
