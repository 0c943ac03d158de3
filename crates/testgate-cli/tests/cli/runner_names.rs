//! Every runner of `Runner::ALL` is named wherever testgate tells a reader
//! which runners it knows: the README, docs/formats.md and the parse
//! crate's README (its description on a registry). These lists are prose
//! the compiler cannot see, so a new runner fails here until each names it.
//! The crates' one-line `Cargo.toml` descriptions name the languages, and
//! the parse crate's docs point to `Runner::ALL` and its README: a runner of
//! a known language does not touch them.
//! The `--help` of `parse` and `check` and the MCP `parse` tool's
//! description are generated from `Runner::ALL` (tested here too, so the
//! generation stays); docs/cli.md points to docs/formats.md.

use std::path::PathBuf;

use serde_json::Value;
use testgate_parse::{Format, Runner};

use crate::testgate;

/// The repository's root, from this crate's manifest (any clone).
fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[expect(
    clippy::disallowed_methods,
    reason = "reads the repository's own docs, not a project's tree"
)]
fn read(path: &str) -> String {
    std::fs::read_to_string(repo_root().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Whether `text` has `name` as a word: not inside a longer one
/// (`go` in `good`, `node` in `node_modules`).
fn names(text: &str, name: &str) -> bool {
    let word = |c: char| c.is_alphanumeric() || c == '_';
    text.match_indices(name).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + name.len()..].chars().next();
        !before.is_some_and(word) && !after.is_some_and(word)
    })
}

/// The runners `text` does not name.
fn missing(text: &str) -> Vec<&'static str> {
    Runner::ALL
        .iter()
        .map(|runner| runner.name())
        .filter(|name| !names(text, name))
        .collect()
}

#[track_caller]
fn assert_names_every_runner(text: &str, what: &str) {
    assert_eq!(
        missing(text),
        Vec::<&str>::new(),
        "{what} does not name them"
    );
}

/// `--format`'s values as `a|b|…`, in `Format::ALL`'s order.
fn format_values() -> String {
    Format::ALL.map(|format| format.name()).join("|")
}

#[test]
fn names_recognises_words_only() {
    assert!(names("cargo test, go test and `node --test`", "go"));
    assert!(names("(go)", "go"));
    assert!(!names("a good run", "go"));
    assert!(!names("node_modules", "node"));
    assert!(!names("nodes", "node"));
}

#[test]
fn the_readme_and_docs_name_every_runner() {
    let readme = read("README.md");
    // The synopsis lists `--format`'s values, and the prose every runner.
    assert!(
        readme.contains(&format!("[--format {}]", format_values())),
        "README.md's `testgate parse` synopsis does not list --format {}",
        format_values()
    );
    let recognised = readme
        .split("\n\n")
        .find(|paragraph| paragraph.contains("Names are recognised in the output of"))
        .expect("README.md says which runners' output it reads");
    assert_names_every_runner(recognised, "README.md's runner list");

    // docs/formats.md has a section per runner.
    let formats = read("docs/formats.md");
    let headings: String = formats
        .lines()
        .filter(|line| line.starts_with("## "))
        .collect::<Vec<_>>()
        .join("\n");
    assert_names_every_runner(&headings, "docs/formats.md's `## ` headings");

    // docs/cli.md's `--format` row sends the reader there rather than
    // keep a copy of the list.
    let cli = read("docs/cli.md");
    let row = cli
        .lines()
        .find(|line| line.starts_with("| `--format F` |"))
        .expect("docs/cli.md has a --format row");
    assert!(
        row.contains("`auto`") && row.contains("docs/formats.md"),
        "docs/cli.md's --format row names `auto` and points to docs/formats.md: {row}"
    );
}

/// The languages whose runners testgate knows: the crates' one-line
/// descriptions name these rather than every runner, so a runner of a
/// known language leaves them alone; a runner of a new one adds it here.
const LANGUAGES: [&str; 8] = [
    "Rust",
    "Python",
    "Go",
    "JavaScript",
    "Java",
    "C++",
    "PHP",
    "Ruby",
];

#[test]
fn the_crates_describe_every_runner() {
    // The parse crate's README is its description on a registry
    // (`readme = "README.md"`): it names every runner. Its crate docs point
    // to it and to `Runner::ALL` rather than keep a copy of the list.
    assert_names_every_runner(
        &read("crates/testgate-parse/README.md"),
        "testgate-parse's README",
    );
    for manifest in [
        "crates/testgate-parse/Cargo.toml",
        "crates/testgate/Cargo.toml",
    ] {
        let text = read(manifest);
        let description = text
            .lines()
            .find(|line| line.starts_with("description = "))
            .unwrap_or_else(|| panic!("{manifest} has a description"));
        for language in LANGUAGES {
            assert!(
                description.contains(language),
                "{manifest}'s description does not name {language}: {description}"
            );
        }
    }
}

#[test]
fn the_help_names_every_runner() {
    for command in ["parse", "check"] {
        let run = testgate(&[command, "--help"], None);
        assert_eq!(run.code, Some(0), "{}", run.stderr);
        for format in Format::ALL {
            assert!(
                names(&run.stdout, format.name()),
                "`testgate {command} --help` does not name {format}:\n{}",
                run.stdout
            );
        }
    }
}

#[test]
fn the_mcp_parse_tool_names_every_runner() {
    // A session as a client opens it: initialize, initialized, tools/list;
    // the server answers, then ends at the end of its input.
    let session = [
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"runner-names","version":"0"}}}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#,
        "",
    ]
    .join("\n");
    let run = testgate(&["mcp"], Some(session.as_bytes()));
    let tools = run
        .stdout
        .lines()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .find(|message| message["id"] == 2)
        .unwrap_or_else(|| panic!("no answer to tools/list: {run:?}"));
    let parse = tools["result"]["tools"]
        .as_array()
        .and_then(|tools| tools.iter().find(|tool| tool["name"] == "parse"))
        .unwrap_or_else(|| panic!("no parse tool: {tools}"));
    let description = parse["description"].as_str().expect("a description");
    assert_names_every_runner(description, "the MCP parse tool's description");
}
