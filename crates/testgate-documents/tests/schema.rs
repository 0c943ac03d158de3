//! The schemas in docs/schema/ are the types' own: regenerated and compared.

use std::path::PathBuf;

use testgate_documents::{DOCUMENTS, schema_of};

const UPDATE: &str =
    "TESTGATE_UPDATE_SCHEMA=1 cargo test -p testgate-documents --features schema --test schema";

fn published(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../docs/schema")
        .join(format!("{name}.json"))
}

#[test]
fn the_published_schemas_are_the_types_schemas() {
    let update = std::env::var_os("TESTGATE_UPDATE_SCHEMA").is_some();
    let mut stale = Vec::new();
    for name in DOCUMENTS {
        let schema = schema_of(name).expect("every name in DOCUMENTS has a schema");
        let text = serde_json::to_string_pretty(&schema).expect("a schema serialises") + "\n";
        let path = published(name);
        if update {
            std::fs::write(&path, &text).expect("docs/schema/ is writable");
        } else if std::fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
            stale.push(path.display().to_string());
        }
    }
    assert!(
        stale.is_empty(),
        "stale or missing: {}; update them with: {UPDATE}",
        stale.join(", ")
    );
}

#[test]
fn an_unknown_name_has_no_schema() {
    assert!(schema_of("record?").is_none());
}
