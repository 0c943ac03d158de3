//! `testgate mcp`: a Model Context Protocol server over stdio whose tools
//! `check`, `parse` and `diff` run the code of the commands of those names.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    JsonObject, ListToolsResult, PaginatedRequestParams, ProgressNotificationParam, ProgressToken,
    ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};
use serde_json::Value;
use testgate::policy::Selection;
use testgate::run::Cancel;
use testgate::{AttemptRecord, Observer, Verdict};
use testgate_documents::{CheckArguments, DiffArguments, EnvArgument, ParseArguments};
use testgate_parse::{Format, Runner};
use tokio::sync::mpsc;

use crate::Error;
use crate::json::parse_document;
use crate::roots::Roots;

mod compact;

/// Serve testgate's tools to an agent over the Model Context Protocol.
///
/// Reads JSON-RPC from standard input and answers on standard output, as
/// an MCP client (an agent's harness) starts a stdio server. Tools:
/// `check` (run a test command in the default sandbox and gate on its
/// verdict, as `check --json`), `parse` (failing tests from a log, as
/// `parse --json`) and `diff` (how each test changed between two checks,
/// as `diff --json`). A check sends a progress notification as each
/// attempt starts and ends, and a cancelled check ends its whole process
/// tree. docs/cli.md, "testgate mcp", has the tools' arguments.
///
/// The caller is treated as the agent whose tests run, so as untrusted:
/// a check's `workspace` must lie in a folder the server was started for
/// (`--root`, the current directory by default) and be no system folder,
/// and its `env` may set no variable that changes a mount, a path, a search
/// path or the loader (`PATH`, `PYTHONPATH`, `CARGO_TARGET_DIR`, `HOME`,
/// `LD_*`, caches…).
///
/// Exits 0 when the client closes the connection or on SIGINT, SIGTERM or
/// SIGHUP (running checks are cancelled first); 2 when it cannot start.
#[derive(Debug, clap::Args)]
pub(crate) struct McpArgs {
    /// A folder the `check` tool's workspaces may lie in (repeatable).
    /// Default: the current directory when the server starts. Neither `/`,
    /// a home, nor a system folder (`/etc`, `/usr`, `/opt`, `/var`…).
    #[arg(long = "root", value_name = "DIR")]
    roots: Vec<PathBuf>,
}

/// Why `testgate mcp` could not start or keep its session: a one-line
/// message.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub(crate) enum ServeError {
    /// The current directory (the default root) cannot be read.
    #[error("cannot read the current directory: {0}")]
    Cwd(#[source] std::io::Error),
    /// A `--root` cannot be served.
    #[error(transparent)]
    Roots(#[from] crate::roots::RootsError),
    /// The async runtime would not start.
    #[error("cannot start the runtime: {0}")]
    Runtime(#[source] std::io::Error),
    /// The session with the client would not start.
    #[error("cannot start the MCP session: {0}")]
    Session(#[source] Box<rmcp::service::ServerInitializeError>),
    /// The signals that end the server cannot be handled.
    #[error("cannot handle signals: {0}")]
    Signals(#[source] std::io::Error),
    /// The session ended in failure.
    #[error("the MCP session failed: {0}")]
    Failed(#[source] tokio::task::JoinError),
}

/// Why a tool call was refused: a one-line message, the client's tool
/// result (`isError`).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
enum CallError {
    /// The `check` tool was called without arguments.
    #[error("`workspace` is missing: give the project directory the command runs in")]
    NoWorkspace,
    /// The `parse` tool was called without arguments.
    #[error("`text` is missing: give the runner's output (or its report)")]
    NoText,
    /// The `diff` tool was called without arguments.
    #[error("`before` is missing: give a check's document (the `check` tool's result)")]
    NoBefore,
    /// An argument the tool does not take.
    #[error("`{tool}` takes no argument `{key}`: it takes {}", known.join(", "))]
    UnknownArgument {
        /// The tool.
        tool: String,
        /// The argument.
        key: String,
        /// The arguments it takes.
        known: Vec<String>,
    },
    /// The arguments are not the tool's.
    #[error(transparent)]
    Arguments(#[from] crate::json::DocumentError),
    /// The workspace lies outside the roots, or is a system folder.
    #[error(transparent)]
    Workspace(#[from] crate::roots::RootsError),
    /// `env` sets a variable the caller may not set.
    #[error(
        "`env` may not set {name}: {why}, and the caller of this server may change \
         what its tests do, never what the sandbox holds"
    )]
    MayNotSet {
        /// The variable.
        name: String,
        /// Why not.
        #[source]
        why: testgate::run::CallerRefusal,
    },
    /// `env` holds a word that sets no variable.
    #[error("`env` holds \"{0}\": {ENV_VALUES}", ENV_VALUES = ENV_VALUES)]
    EnvWord(String),
    /// The arguments make no `check` options.
    #[error(transparent)]
    Options(#[from] crate::check::ToolCallError),
    /// `format` names no format.
    #[error("`format` is \"{0}\": {names}", names = format_names())]
    Format(String),
    /// The text could not be parsed.
    #[error("{0}")]
    Unparsed(#[source] std::io::Error),
    /// A document given as a string is not JSON.
    #[error("`{key}` is a string but not JSON ({source})")]
    NotJson {
        /// The argument.
        key: String,
        /// What serde_json said.
        source: serde_json::Error,
    },
    /// A document is not a check's.
    #[error(transparent)]
    NotACheck(crate::diff::DocumentOfCheckError),
}

/// How long the server waits, once the client is gone, for cancelled
/// checks to end their trees (they do within seconds).
const SHUTDOWN: Duration = Duration::from_secs(60);

/// Runs `testgate mcp` until the client disconnects or a signal arrives.
pub(crate) fn run(args: &McpArgs) -> Result<(), Error> {
    let cwd = std::env::current_dir().map_err(ServeError::Cwd)?;
    let roots = Arc::new(Roots::new(&args.roots, &cwd).map_err(ServeError::Roots)?);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(ServeError::Runtime)?;
    let server = Server {
        cwd,
        roots,
        live: Arc::default(),
    };
    let served = runtime.block_on(serve(server.clone()));
    // The client is gone (or a signal came): no check outlives the server.
    server.cancel_all();
    runtime.shutdown_timeout(SHUTDOWN);
    served
}

async fn serve(server: Server) -> Result<(), Error> {
    let service = server
        .serve(rmcp::transport::stdio())
        .await
        .map_err(|e| ServeError::Session(Box::new(e)))?;
    for kind in [
        tokio::signal::unix::SignalKind::interrupt(),
        tokio::signal::unix::SignalKind::terminate(),
        tokio::signal::unix::SignalKind::hangup(),
    ] {
        let mut signals = tokio::signal::unix::signal(kind).map_err(ServeError::Signals)?;
        let stop = service.cancellation_token();
        tokio::spawn(async move {
            if signals.recv().await.is_some() {
                stop.cancel();
            }
        });
    }
    service
        .waiting()
        .await
        .map(|_| ())
        .map_err(|e| ServeError::Failed(e).into())
}

/// The server: where relative workspaces are, and the checks running.
#[derive(Debug, Clone)]
struct Server {
    /// The directory a relative `workspace` is taken from.
    cwd: PathBuf,
    /// Where a workspace may lie.
    roots: Arc<Roots>,
    /// The cancel handle of every check running, by a number of its own.
    live: Arc<Mutex<LiveChecks>>,
}

#[derive(Debug, Default)]
struct LiveChecks {
    next: u64,
    checks: HashMap<u64, Cancel>,
}

impl Server {
    /// Registers `cancel` until the returned guard is dropped.
    fn register(&self, cancel: &Cancel) -> Registered {
        let mut live = self.live.lock().unwrap_or_else(|e| e.into_inner());
        live.next += 1;
        let id = live.next;
        live.checks.insert(id, cancel.clone());
        Registered {
            live: self.live.clone(),
            id,
        }
    }

    /// Cancels every running check: each ends its process tree.
    fn cancel_all(&self) {
        let live = self.live.lock().unwrap_or_else(|e| e.into_inner());
        live.checks.values().for_each(Cancel::cancel);
    }

    async fn check(
        &self,
        arguments: Option<&JsonObject>,
        context: RequestContext<RoleServer>,
    ) -> CallToolResult {
        let (args, full) = match check_arguments(arguments, &self.cwd, &self.roots) {
            Ok(args) => args,
            Err(why) => return tool_error(&why.to_string()),
        };
        let cancel = Cancel::new();
        let registered = self.register(&cancel);
        // notifications/cancelled for this request trips the run's handle.
        let watcher = {
            let (ct, cancel) = (context.ct.clone(), cancel.clone());
            tokio::spawn(async move {
                ct.cancelled().await;
                cancel.cancel();
            })
        };
        let (steps, mut received) = mpsc::unbounded_channel::<Step>();
        let forwarder = context.meta.get_progress_token().map(|token| {
            let peer = context.peer.clone();
            tokio::spawn(async move {
                while let Some(step) = received.recv().await {
                    let _ = peer.notify_progress(step.notification(&token)).await;
                }
            })
        });
        let run = tokio::task::spawn_blocking(move || {
            let _registered = registered;
            let record = crate::check::execute_observed(&args, &cancel, |max_attempts| {
                Box::new(Progress {
                    steps,
                    max_attempts,
                    step: 0,
                })
            });
            (record, cancel)
        })
        .await;
        watcher.abort();
        // Every progress notification is out before the result.
        if let Some(forwarder) = forwarder {
            let _ = forwarder.await;
        }
        match run {
            Ok((Ok(checked), _)) => {
                let summary = check_summary(&checked.record.verdict);
                compact::check_result(&checked, full, summary)
            }
            Ok((Err(e), _)) => tool_error(&e.to_string()),
            Err(e) => tool_error(&format!("the check stopped: {e}")),
        }
    }
}

/// Removes a check from [`LiveChecks`] when it ends.
struct Registered {
    live: Arc<Mutex<LiveChecks>>,
    id: u64,
}

impl Drop for Registered {
    fn drop(&mut self) {
        let mut live = self.live.lock().unwrap_or_else(|e| e.into_inner());
        live.checks.remove(&self.id);
    }
}

/// One step of a check's progress: an attempt started or ended.
#[derive(Debug)]
struct Step {
    /// Steps so far, this one included.
    number: u64,
    /// The most steps the check can take: two per attempt.
    total: u64,
    message: String,
}

impl Step {
    fn notification(&self, token: &ProgressToken) -> ProgressNotificationParam {
        #[expect(
            clippy::cast_precision_loss,
            reason = "step counts are small; f64 is the protocol's type"
        )]
        ProgressNotificationParam::new(token.clone(), self.number as f64)
            .with_total(self.total as f64)
            .with_message(self.message.clone())
    }
}

/// Sends a [`Step`] as each attempt starts and ends.
struct Progress {
    steps: mpsc::UnboundedSender<Step>,
    max_attempts: u64,
    step: u64,
}

impl Progress {
    fn send(&mut self, message: String) {
        self.step += 1;
        let _ = self.steps.send(Step {
            number: self.step,
            total: self.max_attempts.saturating_mul(2).max(self.step),
            message,
        });
    }
}

impl Observer for Progress {
    fn attempt_started(
        &mut self,
        number: usize,
        selection: &Selection,
        command: &[std::ffi::OsString],
    ) {
        let shown: Vec<String> = command
            .iter()
            .map(|a| testgate::parse::printable(a.as_encoded_bytes()))
            .collect();
        let what = match selection {
            Selection::Full => String::new(),
            Selection::Only(names) => format!(" (retrying {} failed test(s))", names.len()),
        };
        let max = self.max_attempts;
        self.send(format!(
            "attempt {number} of at most {max} started{what}: {}",
            shown.join(" ")
        ));
    }

    fn attempt_finished(&mut self, record: &AttemptRecord) {
        let attempt = &record.attempt;
        let failing = match attempt.failing.len() {
            0 => String::new(),
            1 => ", 1 failing test".to_owned(),
            n => format!(", {n} failing tests"),
        };
        self.send(format!(
            "attempt {} {} after {:.2}s{failing}",
            record.number,
            crate::check::describe_ending(&attempt.ending),
            attempt.duration.as_secs_f64(),
        ));
    }
}

/// `check`'s options from the `check` tool's arguments (typed, then each
/// made the option it is, no command line in between), with a relative
/// `workspace` taken from `cwd`, and whether the call asked for the `full`
/// document; or why not, in one line. What would loosen the sandbox beyond
/// the network (`sandbox`, `writable`, a host variable passed through) is
/// not an argument: the caller is the agent whose tests run.
fn check_arguments(
    arguments: Option<&JsonObject>,
    cwd: &Path,
    roots: &Arc<Roots>,
) -> Result<(crate::check::CheckArgs, bool), CallError> {
    let Some(arguments) = arguments else {
        return Err(CallError::NoWorkspace);
    };
    let call: CheckArguments = arguments_of("check", arguments)?;
    let dir = cwd.join(&call.workspace);
    // Refused here with the roots named; checked again on the folder the
    // run uses (`CheckArgs::roots`).
    if let Ok(canonical) = std::fs::canonicalize(&dir) {
        roots.admit(&canonical)?;
    }
    match &call.env {
        None => {}
        Some(EnvArgument::Map(map)) => map.keys().try_for_each(|name| caller_may_set(name))?,
        Some(EnvArgument::List(words)) => {
            for word in words {
                match word.split_once('=') {
                    Some((name, _)) if !name.is_empty() => caller_may_set(name)?,
                    Some(_) | None => {
                        return Err(CallError::EnvWord(word.clone()));
                    }
                }
            }
        }
    }
    let full = call.full.unwrap_or(false);
    let mut args = crate::check::CheckArgs::of_tool_call(call, dir)?;
    args.roots = Some(roots.clone());
    Ok((args, full))
}

/// The arguments of `tool` as their type, or a one-line error: an argument
/// the tool does not take is named with those it does (from the type's own
/// schema), a bad value with the argument it is.
fn arguments_of<T: serde::de::DeserializeOwned>(
    tool: &str,
    arguments: &JsonObject,
) -> Result<T, CallError> {
    let known: Vec<String> = testgate_documents::tool_input_schema(tool)
        .and_then(|schema| {
            let properties = schema.get("properties")?.as_object()?;
            Some(properties.keys().cloned().collect())
        })
        .unwrap_or_default();
    if let Some(key) = arguments.keys().find(|k| !known.contains(k)) {
        return Err(CallError::UnknownArgument {
            tool: tool.to_owned(),
            key: key.clone(),
            known,
        });
    }
    Ok(crate::json::read_value(Value::Object(arguments.clone()))?)
}

/// `name` if the caller may set it ([`testgate::caller_may_set`],
/// the rule shared with the environment policy), or why not in one line.
fn caller_may_set(name: &str) -> Result<(), CallError> {
    testgate::caller_may_set(name).map_err(|why| CallError::MayNotSet {
        name: name.to_owned(),
        why,
    })
}

/// What `env` takes, and why a host variable is not passed through.
const ENV_VALUES: &str = "give {\"NAME\": \"VALUE\"} or [\"NAME=VALUE\"]; the server sets \
     variables and never passes the host's through (they may hold secrets)";

/// The one line that opens a check's result: `FAIL: 2 failing tests: a, b`.
fn check_summary(verdict: &Verdict) -> String {
    let reason = testgate::parse::printable(verdict.reason().as_bytes());
    let first = reason.lines().next().unwrap_or_default().trim().to_owned();
    match verdict {
        Verdict::Pass { .. } => format!("PASS: {first}"),
        Verdict::Fail { .. } if verdict.failing().is_empty() => format!("FAIL: {first}"),
        Verdict::Fail { .. } => format!("FAIL: {}", names_line(verdict.failing())),
        Verdict::Inconclusive { cause, .. } => format!("INCONCLUSIVE ({}): {first}", cause.name()),
    }
}

/// The most names a summary line shows; the document has them all.
const SHOWN_NAMES: usize = 10;

/// `2 failing tests: a, b`, at most [`SHOWN_NAMES`] named.
fn names_line<S: AsRef<str>>(names: &[S]) -> String {
    let shown: Vec<String> = names
        .iter()
        .take(SHOWN_NAMES)
        .map(|n| testgate::parse::printable(n.as_ref().as_bytes()))
        .collect();
    let more = names.len().saturating_sub(SHOWN_NAMES);
    let more = if more > 0 {
        format!(" and {more} more")
    } else {
        String::new()
    };
    let tests = if names.len() == 1 { "test" } else { "tests" };
    format!(
        "{} failing {tests}: {}{more}",
        names.len(),
        shown.join(", ")
    )
}

/// The `parse` tool: `parse --json`'s document of `text`.
fn parse_tool(arguments: Option<&JsonObject>) -> Result<CallToolResult, CallError> {
    let Some(arguments) = arguments else {
        return Err(CallError::NoText);
    };
    let call: ParseArguments = arguments_of("parse", arguments)?;
    let format = match &call.format {
        None => Format::Auto,
        Some(name) => format_named(name)?,
    };
    let report =
        crate::parse::parse_text(format, call.text.as_bytes()).map_err(CallError::Unparsed)?;
    let names: Vec<&str> = report.names().collect();
    let summary = if names.is_empty() {
        let passed = report.counts.passed.unwrap_or(0);
        match report.format {
            Some(runner) => format!("no failing test ({}; {passed} passed)", runner.name()),
            None => "no failing test: no runner's output recognised".to_owned(),
        }
    } else {
        names_line(&names)
    };
    Ok(document_result(
        &parse_document(Path::new("-"), &report),
        summary,
    ))
}

/// The `format` named `name`, or the names there are.
fn format_named(name: &str) -> Result<Format, CallError> {
    Format::ALL
        .iter()
        .copied()
        .find(|f| f.name() == name)
        .ok_or_else(|| CallError::Format(name.to_owned()))
}

fn format_names() -> String {
    let names: Vec<&str> = Format::ALL.iter().map(|f| f.name()).collect();
    format!("give one of {}", names.join(", "))
}

/// The `diff` tool: `diff --json`'s document of two check documents.
fn diff_tool(arguments: Option<&JsonObject>) -> Result<CallToolResult, CallError> {
    let Some(arguments) = arguments else {
        return Err(CallError::NoBefore);
    };
    let call: DiffArguments = arguments_of("diff", arguments)?;
    let grades = |key: &str, value: Value| {
        let value = match value {
            // A document passed as its JSON text, as some clients do.
            Value::String(text) => {
                serde_json::from_str(&text).map_err(|source| CallError::NotJson {
                    key: key.to_owned(),
                    source,
                })?
            }
            value @ (Value::Null
            | Value::Bool(_)
            | Value::Number(_)
            | Value::Array(_)
            | Value::Object(_)) => value,
        };
        crate::diff::grades_of(&value, &format!("`{key}`")).map_err(CallError::NotACheck)
    };
    let before = grades("before", call.before)?;
    let after = grades("after", call.after)?;
    let document = crate::diff::document(&before, &after);
    let summary = crate::diff::summary(&document);
    Ok(document_result(&document, summary))
}

/// A tool's result: `summary`, then the document as JSON text, and the
/// document as structured content; every string shown as the CLI shows it.
fn document_result<T: serde::Serialize>(document: &T, summary: String) -> CallToolResult {
    match crate::json::printable_value(document) {
        Ok(value) => {
            let mut result = CallToolResult::structured(value);
            result.content.insert(0, ContentBlock::text(summary));
            result
        }
        Err(e) => tool_error(&format!("cannot serialise the result: {e}")),
    }
}

fn tool_error(why: &str) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(why.to_owned())])
}

/// The tools, with their arguments' JSON schemas: the argument types' own
/// (testgate-documents' [`CheckArguments`], [`ParseArguments`],
/// [`DiffArguments`]).
fn tools() -> Vec<Tool> {
    let input = |tool: &str| {
        let schema = testgate_documents::tool_input_schema(tool).map(Value::from);
        match schema {
            Some(Value::Object(map)) => Arc::new(map),
            Some(Value::Null | Value::Bool(_) | Value::Number(_) | Value::String(_))
            | Some(Value::Array(_))
            | None => Arc::new(JsonObject::new()),
        }
    };
    vec![
        compact::describe(Tool::new(
            "check",
            "Run a test command in testgate's sandbox (bubblewrap), bounded by a timeout, \
             retrying failures to tell a broken suite from a flaky one, and gate on one verdict: \
             pass, fail (with the failing tests) or inconclusive (with its cause). The result is \
             compact by default (verdict, cause, failing tests with their message, a grading \
             summary, the attempts in a line each) after a one-line summary; with `full: true`, \
             `testgate check --json`'s whole document.",
            input("check"),
        )),
        Tool::new("parse", parse_description(), input("parse")),
        Tool::new(
            "diff",
            "Compare two checks' documents: which tests broke, were fixed, still fail, are new, \
             gone, flaky or not run (`testgate diff --json`'s document).",
            input("diff"),
        ),
    ]
}

/// The `parse` tool's description: its runners are [`Runner::ALL`]'s
/// names, so a runner added to testgate-parse is named here without an edit.
fn parse_description() -> String {
    let runners = Runner::ALL.map(Runner::name).join(", ");
    format!(
        "Read the failing tests from a test runner's output ({runners}, or a JUnit/JSON \
         report): `testgate parse --json`'s document."
    )
}

impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("testgate", env!("CARGO_PKG_VERSION")))
            .with_instructions(
                "testgate runs a project's own tests in a sandbox and gives one verdict. \
                 Call `check` with the workspace and the test command (or without one: \
                 testgate finds the project's runner).",
            )
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(tools()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let arguments = request.arguments.as_ref();
        let result = match request.name.as_ref() {
            "check" => self.check(arguments, context).await,
            "parse" => parse_tool(arguments).unwrap_or_else(|why| tool_error(&why.to_string())),
            "diff" => diff_tool(arguments).unwrap_or_else(|why| tool_error(&why.to_string())),
            other => {
                return Err(ErrorData::invalid_params(
                    format!("no tool `{other}`: the tools are check, parse and diff"),
                    None,
                ));
            }
        };
        Ok(result.into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn object(value: Value) -> JsonObject {
        match value {
            Value::Object(map) => map,
            other @ (Value::Null
            | Value::Bool(_)
            | Value::Number(_)
            | Value::String(_)
            | Value::Array(_)) => panic!("not an object: {other}"),
        }
    }

    /// Roots the tests' workspaces lie in (canonical paths that need not
    /// exist: `admit` compares paths).
    fn srv() -> Arc<Roots> {
        Arc::new(Roots(vec![PathBuf::from("/srv")]))
    }

    fn check(value: Value) -> Result<String, CallError> {
        check_arguments(Some(&object(value)), Path::new("/srv"), &srv())
            .map(|(args, full)| format!("{args:?} full: {full}"))
    }

    #[test]
    fn check_arguments_become_checks_options() {
        let args = check(json!({
            "workspace": "p", "command": ["pytest", "-q"], "k": 2, "timeout": "90s",
            "env": {"MODE": "fail"}, "expect": {"FAIL_TO_PASS": ["t"]}, "rerun": "failed",
            "allow_network": true
        }))
        .unwrap();
        for wanted in [
            "dir: \"/srv/p\"",
            "retries: 2",
            "timeout: 90s",
            "env: [\"MODE=fail\"]",
            "rerun: Failed",
            "allow_network: true",
            "json: true",
            "quiet: true",
            // The default sandbox, never the host.
            "sandbox: \"auto\"",
            r#"expect_inline: Some(ExpectFile { must_pass: None, keep_passing: None, fail_to_pass: Some(TestList(["t"]))"#,
        ] {
            assert!(args.contains(wanted), "{wanted}: {args}");
        }
        let absolute = check(json!({"workspace": "/w", "command": ["x"], "timeout": 30})).unwrap();
        assert!(
            absolute.contains("dir: \"/w\"") && absolute.contains("timeout: 30s"),
            "{absolute}"
        );
    }

    /// A call is made `check`'s options with no command line in between:
    /// the options are those `check`'s own parser makes of the same
    /// arguments as a manifest line's (which goes through it), defaults
    /// included.
    #[test]
    fn a_call_gives_the_options_checks_parser_gives_the_same_arguments() {
        for arguments in [
            json!({"workspace": "p"}),
            json!({"workspace": "p", "command": ["cargo", "test"], "retries": 2, "timeout": 30}),
            json!({"workspace": "/w", "command": ["x"], "timeout": "1h30m", "rerun": "failed",
                   "env": {"B": "2", "A": "1"}, "allow_network": true, "format": "pytest",
                   "restore": true, "keep_changes": true, "evidence": "report"}),
            json!({"workspace": "p", "command": ["x"], "env": ["A=1", "B=x=y"]}),
            json!({"workspace": "p", "command": ["x"], "expect": {"must_pass": ["a"]},
                   "missing": "fail", "strict": true}),
            json!({"workspace": "p", "command": ["x"], "stress": 3}),
        ] {
            let call = check(arguments.clone()).expect("a good call");
            let line =
                crate::batch::check_args(arguments.to_string().as_bytes(), Path::new("/srv"))
                    .expect("a good manifest line");
            let line = format!("{line:?}").replace("roots: None", "roots: Some(Roots([\"/srv\"]))");
            assert_eq!(call, format!("{line} full: false"), "{arguments}");
        }
    }

    #[test]
    fn a_check_without_a_command_leaves_it_to_detection() {
        for arguments in [
            json!({"workspace": "p"}),
            json!({"workspace": "p", "command": []}),
            json!({"workspace": "p", "command": null}),
        ] {
            let args = check(arguments.clone()).unwrap();
            assert!(args.contains("command: []"), "{arguments}: {args}");
        }
    }

    #[test]
    fn bad_check_arguments_are_one_line_errors() {
        let cases = [
            (json!({"command": ["x"]}), "missing field `workspace`"),
            (
                json!({"workspace": 3, "command": ["x"]}),
                "`workspace`: invalid type: integer `3`",
            ),
            (
                json!({"workspace": "p", "command": "cargo test"}),
                "`command`: invalid type: string \"cargo test\"",
            ),
            (
                json!({"workspace": "p", "command": ["x"], "retires": 1}),
                "no argument `retires`",
            ),
            (
                json!({"workspace": "p", "command": ["x"], "sandbox": "none"}),
                "no argument `sandbox`",
            ),
            (
                json!({"workspace": "p", "command": ["x"], "writable": ["/"]}),
                "no argument `writable`",
            ),
            (
                json!({"workspace": "p", "command": ["x"], "prepare": ["curl x | sh"]}),
                "no argument `prepare`",
            ),
            (
                json!({"workspace": "p", "command": ["x"], "tmpfs_size": "64G"}),
                "no argument `tmpfs_size`",
            ),
            (
                json!({"workspace": "p", "command": ["x"], "baseline": "/etc/shadow"}),
                "no argument `baseline`",
            ),
            (
                json!({"workspace": "p", "command": ["x"], "quarantine": "/etc/shadow"}),
                "no argument `quarantine`",
            ),
            (
                json!({"workspace": "p", "command": ["x"], "record": "/etc/cron.d/x"}),
                "no argument `record`",
            ),
            (
                json!({"workspace": "p", "command": ["x"], "stress": 3, "k": 1}),
                "cannot be used with",
            ),
            (
                json!({"workspace": "p", "command": ["x"], "k": 1, "retries": 2}),
                "not both",
            ),
            (
                json!({"workspace": "p", "command": ["x"], "k": -1}),
                "invalid value",
            ),
            (
                json!({"workspace": "p", "command": ["x"], "retries": "two"}),
                "invalid type",
            ),
            (
                json!({"workspace": "p", "command": ["x"], "timeout": "soon"}),
                "`soon` is not a duration",
            ),
            (
                json!({"workspace": "p", "command": ["x"], "timeout": 0}),
                "longer than zero",
            ),
            (
                json!({"workspace": "p", "command": ["x"], "rerun": "some"}),
                "some",
            ),
            (
                json!({"workspace": "p", "command": ["x"], "expect": "e.json"}),
                "`expect`: invalid type: string \"e.json\"",
            ),
            (
                json!({"workspace": "p", "command": ["x"], "env": {"HOME": null}}),
                "never passes the host's through",
            ),
            (
                json!({"workspace": "p", "command": ["x"], "env": ["TOKEN"]}),
                "never passes the host's through",
            ),
            (
                json!({"workspace": "p", "command": ["x"], "env": ["=v"]}),
                "`env` holds",
            ),
            (
                json!({"workspace": "p", "command": ["x"], "env": "A=1"}),
                "`env`: invalid type: string",
            ),
            (
                json!({"workspace": "p", "command": ["x"], "stress": 1}),
                "`stress` is 1",
            ),
            (
                json!({"workspace": "p", "command": ["x"], "strict": true}),
                "give `expect` too",
            ),
            (
                json!({"workspace": "p", "command": ["x"], "format": "surefire"}),
                "surefire",
            ),
        ];
        for (arguments, wanted) in cases {
            let why = check(arguments.clone()).unwrap_err().to_string();
            assert!(why.contains(wanted), "{arguments}: {why}");
            assert!(!why.contains('\n'), "{arguments}: {why}");
        }
        let why = check_arguments(None, Path::new("/srv"), &srv())
            .unwrap_err()
            .to_string();
        assert!(why.contains("`workspace` is missing"), "{why}");
    }

    #[test]
    fn the_caller_sets_no_mount_path_search_path_or_loader() {
        for (env, name) in [
            (json!({"CARGO_TARGET_DIR": "/"}), "CARGO_TARGET_DIR"),
            (json!({"PYTHONPATH": "/root"}), "PYTHONPATH"),
            (json!(["PATH=/root:/usr/bin"]), "PATH"),
            (json!({"LD_PRELOAD": "/x.so"}), "LD_PRELOAD"),
            (json!({"NODE_OPTIONS": "--require /x"}), "NODE_OPTIONS"),
            (json!({"XDG_CACHE_HOME": "/etc"}), "XDG_CACHE_HOME"),
            (json!({"MODE": "fail", "HOME": "/root"}), "HOME"),
        ] {
            let why = check(json!({"workspace": "p", "command": ["x"], "env": env}))
                .unwrap_err()
                .to_string();
            assert!(
                why.starts_with(&format!("`env` may not set {name}: ")),
                "{why}"
            );
            assert!(!why.contains('\n'), "{why}");
        }
        let fine = check(json!({"workspace": "p", "command": ["x"], "env": {"CI": "1"}}));
        assert!(fine.is_ok(), "{fine:?}");
    }

    #[test]
    fn a_workspace_lies_in_a_root_and_is_no_system_folder() {
        let roots = Roots(vec![PathBuf::from("/srv/work")]);
        assert!(roots.admit(Path::new("/srv/work/p")).is_ok());
        assert!(roots.admit(Path::new("/srv/work")).is_ok());
        for (refused, wanted) in [
            (
                "/srv/workshop",
                "not in the folders this server was started for (/srv/work;",
            ),
            ("/etc", "/etc is in the system folder /etc"),
            ("/usr/local/bin", "in the system folder /usr"),
            ("/var/spool/cron", "in the system folder /var/spool"),
            ("/boot", "system folder /boot"),
            ("/opt", "/opt is a system folder"),
        ] {
            let why = roots.admit(Path::new(refused)).unwrap_err().to_string();
            assert!(why.contains(wanted), "{refused}: {why}");
        }
        // A root that is a system tree admits nothing in it either.
        let system = Roots(vec![PathBuf::from("/")]);
        assert!(system.admit(Path::new("/etc/cron.d")).is_err());
        // A root is refused when it is one.
        for root in ["/", "/etc", "/usr/local/bin", "/opt", "/root"] {
            let why = Roots::new(&[PathBuf::from(root)], Path::new("/"))
                .unwrap_err()
                .to_string();
            assert!(
                why.starts_with(&format!("cannot serve {root} (--root): ")),
                "{why}"
            );
        }
    }

    #[test]
    fn bad_parse_and_diff_arguments_are_one_line_errors() {
        let parse = |v: Value| {
            parse_tool(Some(&object(v)))
                .map(|_| ())
                .unwrap_err()
                .to_string()
        };
        assert!(parse(json!({})).contains("missing field `text`"));
        assert!(parse(json!({"text": 3})).contains("`text`: invalid type: integer `3`"));
        assert!(parse(json!({"text": "", "format": "surefire"})).contains("give one of auto"));
        assert!(parse(json!({"text": "", "lines": 3})).contains("no argument `lines`"));
        let diff = |v: Value| {
            diff_tool(Some(&object(v)))
                .map(|_| ())
                .unwrap_err()
                .to_string()
        };
        assert!(diff(json!({"after": {}})).contains("missing field `before`"));
        assert!(diff(json!({"before": "{", "after": {}})).contains("not JSON"));
        assert!(
            diff(json!({"before": {"verdict": "pass"}, "after": {}})).contains("no `tests` list")
        );
        for why in [parse(json!({"text": 1})), diff(json!({"before": 1}))] {
            assert!(!why.contains('\n'), "{why}");
        }
    }

    #[test]
    fn parse_and_diff_give_the_documents_after_a_summary() {
        let log = "running 2 tests\ntest a ... ok\ntest b ... FAILED\n\nfailures:\n    b\n\ntest result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out\n";
        let result = parse_tool(Some(&object(json!({"text": log})))).unwrap();
        let text = format!("{:?}", result.content.first());
        assert!(text.contains("1 failing test: b"), "{text}");
        let document = result.structured_content.unwrap();
        assert_eq!(document["failing"][0]["name"], "b");
        assert_eq!(document["format"], "cargo");

        let before = json!({"tests": [{"name": "a", "outcomes": ["passed"]}, {"name": "b", "outcomes": ["passed"]}]});
        let after = json!({"tests": [{"name": "a", "outcomes": ["passed"]}, {"name": "b", "outcomes": ["failed"]}]});
        let result = diff_tool(Some(&object(
            json!({"before": before, "after": after.to_string()}),
        )))
        .unwrap();
        let text = format!("{:?}", result.content.first());
        assert!(text.contains("1 broken, 1 still passing"), "{text}");
        assert_eq!(result.structured_content.unwrap()["counts"]["broken"], 1);
    }

    #[test]
    fn the_diff_tool_refuses_an_outcome_it_does_not_know_naming_it() {
        let before = json!({"tests": [{"name": "a", "outcomes": ["quarantined"]}]});
        let after = json!({"tests": [{"name": "a", "outcomes": ["passed"]}]});
        let why = diff_tool(Some(&object(json!({"before": before, "after": after}))))
            .expect_err("an unknown outcome is refused")
            .to_string();
        assert!(why.starts_with("`before`: not a check's document"), "{why}");
        assert!(why.contains("quarantined"), "{why}");
    }

    /// The schemas `tools/list` gives are the argument types': every
    /// argument the tools took when their schemas were written by hand,
    /// no other, each optional one typed without null.
    #[test]
    fn the_tools_input_schemas_are_the_argument_types() {
        let tools = tools();
        let schema = |name: &str| {
            let tool = tools.iter().find(|t| t.name == name).expect("the tool");
            Value::Object((*tool.input_schema).clone())
        };
        let check = schema("check");
        let mut arguments: Vec<&str> = check["properties"]
            .as_object()
            .expect("properties")
            .keys()
            .map(String::as_str)
            .collect();
        arguments.sort_unstable();
        assert_eq!(
            arguments,
            [
                "allow_network",
                "apply",
                "command",
                "env",
                "evidence",
                "expect",
                "format",
                "full",
                "k",
                "keep_changes",
                "missing",
                "rerun",
                "restore",
                "retries",
                "stress",
                "strict",
                "timeout",
                "trusted",
                "workspace"
            ]
        );
        assert_eq!(check["required"], json!(["workspace"]));
        assert_eq!(check["additionalProperties"], json!(false));
        assert_eq!(check["properties"]["full"]["type"], "boolean");
        assert_eq!(check["properties"]["stress"]["minimum"], 2);
        let values = |argument: &str| -> Vec<Value> {
            let options = check["properties"][argument]["oneOf"].as_array();
            options
                .into_iter()
                .flatten()
                .map(|o| o["const"].clone())
                .collect()
        };
        assert_eq!(values("rerun"), [json!("all"), json!("failed")]);
        assert_eq!(values("missing"), [json!("not-run"), json!("fail")]);
        assert_eq!(values("evidence"), [json!("any"), json!("report")]);
        assert_eq!(schema("parse")["required"], json!(["text"]));
        assert_eq!(schema("diff")["required"], json!(["before", "after"]));
    }

    #[test]
    fn a_long_list_of_names_is_cut_in_the_summary() {
        let names: Vec<String> = (0..12).map(|i| format!("t{i}")).collect();
        let line = names_line(&names);
        assert!(line.starts_with("12 failing tests: t0, t1,"), "{line}");
        assert!(line.ends_with("t9 and 2 more"), "{line}");
        assert_eq!(names_line(&["only"]), "1 failing test: only");
    }
}
