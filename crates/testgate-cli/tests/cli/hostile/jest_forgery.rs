//! A jest test that forges jest's closing summary and ends jest with
//! status 0 (issue 28): testgate asks jest for its `--json` report, which a
//! run ended so never writes.

use super::harness::Attack;

/// `tests/hostile/jest-forgery`: a test fails, the next prints jest's green
/// summary (under `--verbose` with the tree of passes) and calls
/// `process.reallyExit(0)`. The console is a closed, passing jest run and
/// jest exits 0, under `npx jest`, `npx jest --verbose` and `npm test`
/// alike: PASS on the code before testgate asked for jest's report (run
/// through that binary by hand, see the report of branch `jsreports`). jest
/// writes its report when the run ends, so a run ended by a test leaves
/// none: Inconclusive `truncated`, never a Pass.
#[test]
fn a_forged_jest_summary_and_exit_0_is_truncated_not_pass() {
    for command in [
        &["npx", "--no-install", "jest"][..],
        &["npx", "--no-install", "jest", "--verbose"],
        &["npm", "test"],
    ] {
        let attack = Attack::new("jest-forgery")
            .runner_command(command)
            .with_node_modules();
        let outcome = attack.run();
        outcome.assert_verdict("inconclusive", Some("truncated"), 125);
        let attempt = outcome.attempt();
        assert_eq!(
            (attempt["outcome"].as_str(), attempt["exit_code"].as_i64()),
            (Some("exited"), Some(0)),
            "{command:?}: {attempt:#}"
        );
        // jest was asked for its report: by argument, also through npm.
        let asked = attempt["command"]
            .as_array()
            .into_iter()
            .flatten()
            .any(|word| word == "--json");
        assert!(asked, "{command:?}: {attempt:#}");
        assert!(
            attempt["note"]
                .as_str()
                .is_some_and(|note| note.contains("the runner wrote no complete report")),
            "{command:?}: {attempt:#}"
        );
        attack.assert_contained(&outcome);
    }
}

/// The same forgery behind wrappers (issue 36): `make test` (the suite's
/// Makefile runs `npx jest`), `sh run.sh` (the suite's script `exec`s it)
/// and a shell's `jest --ci && echo done`. Behind `sh -c` jest is asked in
/// the script, behind `make` and a script file through node's
/// `NODE_OPTIONS` (a preload that adds the report's arguments to jest's
/// own): each is Inconclusive `truncated`. PASS on the code before (main at
/// 7ad09a6: nothing reached jest behind a wrapper, and the console judged
/// alone).
#[test]
fn a_forged_jest_summary_behind_a_wrapper_is_truncated_not_pass() {
    for (command, marker_args) in [
        (&["make", "test"][..], false),
        (&["sh", "run.sh"], true),
        (
            &["sh", "-c", "npx --no-install jest --ci && echo done"],
            false,
        ),
    ] {
        let attack = Attack::new("jest-forgery");
        let attack = if marker_args {
            attack.command(command)
        } else {
            attack.runner_command(command)
        }
        .with_node_modules();
        let outcome = attack.run();
        outcome.assert_verdict("inconclusive", Some("truncated"), 125);
        let attempt = outcome.attempt();
        assert!(
            attempt["note"]
                .as_str()
                .is_some_and(|note| note.contains("the runner wrote no complete report")),
            "{command:?}: {attempt:#}"
        );
        attack.assert_contained(&outcome);
    }
}
