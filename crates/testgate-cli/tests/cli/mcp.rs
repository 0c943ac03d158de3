//! `testgate mcp` as a client sees it: a refused tool call reaches the
//! client as the tool's one-line error result (`isError`), an unknown tool
//! as a JSON-RPC error, a root that cannot be served as exit 2. The texts
//! are pinned whole: the server's errors are typed inside, and only their
//! words reach the client.

use serde_json::{Value, json};

use crate::testgate;

/// The answers of a session that calls each of `calls` (tool name and
/// arguments, `None` for no arguments), by call: the server answers, then
/// ends at the end of its input.
fn answers(calls: &[(&str, Option<Value>)]) -> Vec<Value> {
    let mut session = vec![
        json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-03-26", "capabilities": {},
            "clientInfo": {"name": "mcp-errors", "version": "0"}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
    ];
    for (id, (name, arguments)) in calls.iter().enumerate() {
        let mut params = json!({"name": name});
        if let Some(arguments) = arguments {
            params["arguments"] = arguments.clone();
        }
        session.push(
            json!({"jsonrpc": "2.0", "id": id + 1, "method": "tools/call", "params": params}),
        );
    }
    let mut input: String = session.iter().map(|m| format!("{m}\n")).collect();
    input.push('\n');
    let run = testgate(&["mcp"], Some(input.as_bytes()));
    let said: Vec<Value> = run
        .stdout
        .lines()
        .filter_map(|line| serde_json::from_str(line).ok())
        .collect();
    (1..=calls.len())
        .map(|id| {
            said.iter()
                .find(|message| message["id"] == id)
                .cloned()
                .unwrap_or_else(|| panic!("no answer to call {id}: {run:?}"))
        })
        .collect()
}

/// The text of a tool's error result.
fn tool_error(answer: &Value) -> &str {
    assert_eq!(answer["result"]["isError"], true, "{answer}");
    answer["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("no text: {answer}"))
}

#[test]
fn refused_calls_reach_the_client_as_their_one_line_texts() {
    let calls = [
        ("parse", None),
        ("parse", Some(json!({"text": "", "lines": 3}))),
        ("check", Some(json!({"workspace": "/etc"}))),
        (
            "check",
            Some(json!({"workspace": ".", "env": {"PATH": "/x"}})),
        ),
        ("check", Some(json!({"workspace": ".", "env": ["NOVALUE"]}))),
        ("check", Some(json!({"workspace": ".", "stress": 1}))),
        ("check", Some(json!({"workspace": ".", "timeout": "0"}))),
        ("diff", Some(json!({"before": "{", "after": {}}))),
        ("nosuch", None),
    ];
    let answers = answers(&calls);
    let mut texts: Vec<&str> = answers[..8].iter().map(tool_error).collect();
    // Why PATH may not be set is testgate-run's word; the rest is the
    // server's.
    let path = texts.remove(3);
    assert!(
        path.starts_with("`env` may not set PATH: ")
            && path.ends_with(
                ", and the caller of this server may change what its tests do, never what \
                 the sandbox holds"
            ),
        "{path}"
    );
    assert_eq!(
        texts,
        [
            "`text` is missing: give the runner's output (or its report)",
            "`parse` takes no argument `lines`: it takes format, text",
            "refusing the workspace: /etc is in the system folder /etc",
            "`env` holds \"NOVALUE\": give {\"NAME\": \"VALUE\"} or [\"NAME=VALUE\"]; the \
             server sets variables and never passes the host's through (they may hold secrets)",
            "`stress` is 1: give 2 runs or more",
            "`timeout`: the timeout `0` must be longer than zero",
            "`before` is a string but not JSON (EOF while parsing an object at line 1 column 1)",
        ]
    );
    assert_eq!(
        answers[8]["error"]["message"], "no tool `nosuch`: the tools are check, parse and diff",
        "{}",
        answers[8]
    );
}

#[test]
fn a_system_folder_as_root_is_refused_before_serving() {
    let run = testgate(&["mcp", "--root", "/etc"], Some(b""));
    assert_eq!(run.code, Some(2), "{run:?}");
    assert_eq!(
        run.stderr,
        "testgate: cannot serve /etc (--root): /etc is in the system folder /etc; give the \
         folder that holds the projects\n"
    );
}
