//! Maven's console with Surefire's lines: Surefire 2.22 and 3.x, JUnit 4
//! and the JUnit Platform, one module or a reactor's many.
//!
//! A failing name is `fully.qualified.Class#method` as Surefire's XML
//! report names the test (`method[1]`, `method(String)[2]`,
//! `method{String}[2]`, `Outer$Inner#m`), or the class alone for a failure
//! outside any test (a `@BeforeClass` that threw). It comes from the lines
//! Surefire prints after a class's result (`Tests run: …, <<< FAILURE! --
//! in Class`, then `Class.method -- Time elapsed: … <<< FAILURE!`), and
//! stands only where that run's last `Results:` section lists a failure
//! in its class (by the class's simple name, `CalcTest.subtracts:10 …`, or
//! whole where reruns are on) and its `Tests run:` total counts failures:
//! a test prints anything between `Running Class` and its class's result,
//! also Surefire's lines, and all of it is ignored; a total that counts no
//! failure drops every candidate.
//!
//! A test that failed and then passed on one of Surefire's reruns
//! (`-Dsurefire.rerunFailingTestsCount`) is listed under `Flakes:`: flaky.
//! A forked JVM that died (`System.exit`, a crash) is listed under
//! `Crashed tests:`, or named by Maven's `The forked VM terminated` error:
//! a [`Crash`], the class as the binary. A module that did not compile is
//! a failing name of [`Kind::Package`]: the module.

use super::java::{bare, is_class_name, simple, split_test, split_whole, whole_name};
use super::{Excerpts, Findings, Interest, Recognizer};
use crate::line::Line;
use crate::report::{Counts, Crash, FailingTest, Kind, Outcome};
use crate::runner::Runner;

/// The most classes kept open at once: a flood of forged `Running` lines
/// costs no memory past it (Surefire nests a class in a class, a few deep).
const MAX_OPEN: usize = 64;

/// The most candidates or list entries kept per run: past it, later ones
/// are dropped (the run's judgement is kept whole all the same).
const MAX_PER_RUN: usize = 1 << 16;

/// Recognises Maven's console with Surefire's lines.
#[derive(Debug, Default)]
pub(crate) struct Maven {
    findings: Findings,
    /// The module the last plugin header named (`--- …:test (…) @ core ---`).
    module: Option<String>,
    /// The Surefire run in progress, from its `T E S T S` header to its
    /// `Tests run:` total.
    run: Option<Run>,
    /// The blocks of the failing tests' stack traces.
    excerpts: Excerpts,
}

/// One Surefire run (one module's `test` goal).
#[derive(Debug, Default)]
struct Run {
    module: Option<String>,
    /// Classes Surefire said it is running and has given no result of,
    /// with the line that said so.
    open: Vec<(u64, String)>,
    /// The class whose failed tests' lines follow its result.
    details: Option<String>,
    /// Tests a line after their class's result said failed.
    candidates: Vec<Candidate>,
    /// The last `Results:` section's failures, errors, flakes and crashed
    /// classes; `None` before one.
    listed: Option<Listed>,
    /// The part of the `Results:` section being read.
    section: Section,
    /// The candidate named by its method alone whose trace is being read.
    refine: Option<usize>,
}

/// A failed test as a line after its class's result names it.
#[derive(Debug, Clone)]
struct Candidate {
    index: u64,
    /// The name its excerpt is kept under: the name first read.
    key: String,
    class: String,
    /// `None` for the class itself.
    method: Option<String>,
    outcome: Outcome,
}

impl Candidate {
    fn name(&self) -> String {
        match &self.method {
            Some(method) => format!("{}#{method}", self.class),
            None => self.class.clone(),
        }
    }
}

/// A `Results:` section.
#[derive(Debug, Default)]
struct Listed {
    entries: Vec<Entry>,
    flakes: Vec<(u64, String)>,
    crashed: Vec<(u64, String)>,
}

impl Listed {
    fn is_empty(&self) -> bool {
        self.entries.is_empty() && self.flakes.is_empty() && self.crashed.is_empty()
    }
}

/// One failure a `Results:` section lists.
#[derive(Debug, Clone)]
struct Entry {
    index: u64,
    /// The class as listed: its simple name (`OuterTest$InnerTest`), or
    /// its whole name where the entry is a rerun's heading.
    class: String,
    /// The method as listed, without its parameters; `None` where none is.
    method: Option<String>,
    /// The rerun heading's whole test: `com.example.ParamTest.squares(int, int)[3]`.
    whole: Option<String>,
    outcome: Outcome,
}

#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
enum Section {
    #[default]
    None,
    Failures,
    Errors,
    Flakes,
    Crashed,
}

/// Maven's error when Surefire's forked JVM died (`System.exit`, a crash).
const FORK_DIED: &str = "The forked VM terminated without properly saying goodbye";

/// Lines that start with `[`: Maven's `[INFO]`, `[ERROR]`, `[WARNING]`.
static PREFIXED: Interest = Interest::NONE.first(b"[");

/// Maven's level and the rest of a line it logged; `None` for a line it
/// did not (a test's own output, a stack trace).
fn level(text: &str) -> Option<(Level, &str)> {
    let (level, rest) = if let Some(rest) = text.strip_prefix("[INFO]") {
        (Level::Info, rest)
    } else if let Some(rest) = text.strip_prefix("[ERROR]") {
        (Level::Error, rest)
    } else if let Some(rest) = text.strip_prefix("[WARNING]") {
        (Level::Warning, rest)
    } else {
        return None;
    };
    match rest.strip_prefix(' ') {
        Some(rest) => Some((level, rest)),
        None if rest.is_empty() => Some((level, rest)),
        None => None,
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Level {
    Info,
    Error,
    Warning,
}

/// A class's result (`Tests run: 3, Failures: 1, …, Time elapsed: 0.1 s
/// <<< FAILURE! -- in com.example.CalcTest`; 2.22: `- in`): the class,
/// and whether something in it failed.
fn class_result(rest: &str) -> Option<(&str, bool)> {
    let body = rest.strip_prefix("Tests run: ")?;
    let (head, class) = body
        .rsplit_once(" -- in ")
        .or_else(|| body.rsplit_once(" - in "))?;
    let class = class.trim();
    if class.is_empty() || class.contains(' ') {
        return None;
    }
    Some((
        class,
        head.contains("<<< FAILURE!") || head.contains("<<< ERROR!"),
    ))
}

/// A run's `Tests run:` total.
#[derive(Debug, Clone, Copy)]
struct Total {
    run: u64,
    /// Failures and errors.
    failed: u64,
    skipped: u64,
    flakes: u64,
}

/// A run's total (`Tests run: 17, Failures: 5, Errors: 2, Skipped: 1`,
/// with reruns `, Flakes: 1`).
fn total(rest: &str) -> Option<Total> {
    let body = rest.strip_prefix("Tests run: ")?;
    if body.contains(" in ") || body.contains("Time elapsed") {
        return None;
    }
    let mut numbers = [None; 5];
    for (i, part) in body.split(", ").enumerate() {
        let (key, value) = part.split_once(": ").unwrap_or(("", part));
        let value: u64 = value.trim().parse().ok()?;
        let slot = match (i, key) {
            (0, _) => 0,
            (_, "Failures") => 1,
            (_, "Errors") => 2,
            (_, "Skipped") => 3,
            (_, "Flakes") => 4,
            _ => return None,
        };
        numbers[slot] = Some(value);
    }
    let [
        Some(run),
        Some(failures),
        Some(errors),
        Some(skipped),
        flakes,
    ] = numbers
    else {
        return None;
    };
    Some(Total {
        run,
        failed: failures.saturating_add(errors),
        skipped,
        flakes: flakes.unwrap_or(0),
    })
}

/// A failed test's line after its class's result: 3.x's `com.example.
/// CalcTest.subtracts -- Time elapsed: 0.001 s <<< FAILURE!`, 2.22's
/// `subtracts(com.example.CalcTest)  Time elapsed: 0 s  <<< ERROR!`.
fn failed_test(rest: &str) -> Option<(&str, Outcome)> {
    let (name, tail) = rest.split_once(" Time elapsed: ")?;
    let outcome = if tail.ends_with("<<< FAILURE!") {
        Outcome::Failed
    } else if tail.ends_with("<<< ERROR!") {
        Outcome::Error
    } else {
        return None;
    };
    let name = name.trim_end();
    let name = name.strip_suffix(" --").unwrap_or(name).trim_end();
    (!name.is_empty()).then_some((name, outcome))
}

/// A `Results:` entry: `  CalcTest.subtracts:10 expected…` (two spaces),
/// or a rerun heading with no indent, `com.example.CalcTest.subtracts`,
/// whose `  Run N:` lines follow.
fn entry(index: u64, rest: &str, outcome: Outcome) -> Option<Entry> {
    if let Some(listed) = rest.strip_prefix("  ") {
        if listed.starts_with(' ') || listed.starts_with("Run ") {
            return None;
        }
        // `CalcTest.subtracts:10 message`, `SetupTest.connect:7 IllegalState …`.
        let word = listed.split(' ').next().unwrap_or_default();
        let word = word.split(':').next().unwrap_or(word);
        let (class, method) = match word.rsplit_once('.') {
            Some((class, method)) => (class, Some(method)),
            None => (word, None),
        };
        if class.is_empty() || !is_class_name(&format!("p.{class}")) {
            return None;
        }
        return Some(Entry {
            index,
            class: class.to_owned(),
            method: method.map(|m| bare(m).to_owned()),
            whole: None,
            outcome,
        });
    }
    let head = rest.trim_end();
    let end = head.find(['(', '[', '{']).unwrap_or(head.len());
    if head.get(..end)?.contains(' ') {
        return None;
    }
    let (class, method) = split_whole(head);
    if !is_class_name(&class) {
        return None;
    }
    Some(Entry {
        index,
        class,
        method: method.as_deref().map(bare).map(str::to_owned),
        whole: Some(head.to_owned()),
        outcome,
    })
}

impl Maven {
    fn detected(&mut self, index: u64) {
        self.findings.detected(index);
    }

    /// Ends the run in progress: `total` is its `Tests run:` total (run,
    /// failed, skipped), `None` where the run ended without one.
    fn end_run(&mut self, total: Option<Total>) {
        let Some(mut run) = self.run.take() else {
            return;
        };
        self.excerpts.end();
        if run.module.is_some() {
            self.module.clone_from(&run.module);
        }
        let module = run.module.clone();
        let listed = run.listed.take().unwrap_or_default();
        for (index, class) in &listed.crashed {
            self.crash(*index, Some(class));
        }
        let Some(total) = total else {
            self.cut_off(run, module.as_deref());
            return;
        };
        self.count_total(total, &listed.flakes, module.as_deref());
        if total.failed == 0 {
            // Surefire's own total counts no failure: every candidate was
            // printed by a test.
            return;
        }
        self.confirm_listed(run.candidates, &listed, module.as_deref());
    }

    /// A run that ended without its `Tests run:` total: cut off, killed,
    /// or its fork died. Every candidate stands, and the classes still
    /// open were running.
    fn cut_off(&mut self, run: Run, module: Option<&str>) {
        let phrase = match module {
            Some(module) => {
                format!("Surefire's run in {module} ended without its `Tests run:` total")
            }
            None => "a Surefire run ended without its `Tests run:` total".to_owned(),
        };
        self.findings.unclosed.get_or_insert(phrase);
        for (at, class) in &run.open {
            self.findings.running.push((*at, class.clone()));
        }
        for candidate in run.candidates {
            self.confirm(candidate, module);
        }
    }

    /// Counts a run's `total`, and the tests its `Flakes:` list names
    /// (`flakes`) as flaky.
    fn count_total(&mut self, total: Total, flakes: &[(u64, String)], module: Option<&str>) {
        let Total {
            run: ran,
            failed,
            skipped,
            flakes: flaked,
        } = total;
        self.findings.counts.add(Counts {
            passed: Some(ran.saturating_sub(failed).saturating_sub(skipped)),
            failed: Some(failed),
            skipped: Some(skipped),
        });
        if ran == 0 {
            self.findings.no_tests_ran = true;
        }
        // `-q` hides the `Flakes:` list (a warning), not the count.
        let unnamed = flaked.saturating_sub(flakes.len() as u64);
        self.findings.reruns = self.findings.reruns.saturating_add(unnamed);
        for (index, flaky) in flakes {
            let name = whole_name(flaky);
            self.findings
                .seen
                .note(*index, &name, module, Outcome::Flaky);
            self.findings.flaky.push((*index, name));
        }
    }

    /// Confirms, of a run whose total counts failures, each candidate its
    /// `Results:` section (`listed`) lists, and each rerun heading listed
    /// that no candidate matched.
    fn confirm_listed(
        &mut self,
        candidates: Vec<Candidate>,
        listed: &Listed,
        module: Option<&str>,
    ) {
        let mut used = vec![false; listed.entries.len()];
        let mut confirmed = false;
        for mut candidate in candidates {
            let Some(at) = listed.entries.iter().position(|e| e.lists(&candidate)) else {
                continue;
            };
            let entry = &listed.entries[at];
            used[at] = true;
            // 2.22 on the JUnit Platform names a nested class's test by
            // its outer class; the list names the nested one.
            if entry.whole.is_none()
                && entry.class != simple(&candidate.class)
                && let Some((package, _)) = candidate.class.rsplit_once('.')
            {
                candidate.class = format!("{package}.{}", entry.class);
            }
            confirmed = true;
            self.confirm(candidate, module);
        }
        // A rerun heading names the test whole: it stands on its own
        // (`-q` hides no error, but a class's lines may have been cut).
        for (entry, used) in listed.entries.iter().zip(used) {
            if let (Some(whole), false) = (&entry.whole, used) {
                let (class, method) = split_whole(whole);
                let mut candidate = Candidate {
                    index: entry.index,
                    key: String::new(),
                    class,
                    method,
                    outcome: entry.outcome,
                };
                candidate.key = candidate.name();
                confirmed = true;
                self.confirm(candidate, module);
            }
        }
        if !confirmed && listed.entries.is_empty() {
            // A total that counts failures and no list: Surefire printed
            // none (a fork that died); the candidates stand.
            self.findings.unclosed.get_or_insert_with(|| {
                "a Surefire run counted failures and listed none".to_owned()
            });
        }
    }

    fn confirm(&mut self, candidate: Candidate, module: Option<&str>) {
        let name = candidate.name();
        let (message, excerpt) = self.excerpts.take(&candidate.key);
        self.findings
            .seen
            .note(candidate.index, &name, module, candidate.outcome);
        let kind = if candidate.method.is_some() {
            Kind::Test
        } else {
            Kind::Suite
        };
        let test = FailingTest::new(name, Runner::Maven, module.map(str::to_owned))
            .with_kind(kind)
            .with_output(message, excerpt);
        self.findings.fail(candidate.index, test);
    }

    /// Maven's `The forked VM terminated without properly saying goodbye`
    /// (or a `Crashed tests:` entry): the run's forked JVM died while
    /// `running` ran. Once per module.
    fn crash(&mut self, index: u64, running: Option<&str>) {
        let module = self
            .run
            .as_ref()
            .and_then(|run| run.module.clone())
            .or_else(|| self.module.clone());
        let known = self
            .findings
            .crashes
            .iter_mut()
            .find(|(_, c)| c.binary == module);
        if let Some((_, crash)) = known {
            if crash.running.is_none() {
                crash.running = running.map(str::to_owned);
            }
            return;
        }
        let crash = Crash {
            format: Runner::Maven,
            binary: module,
            cause: "the forked VM terminated without saying goodbye".to_owned(),
            running: running.map(str::to_owned),
            started_by: None,
        };
        self.findings.crashes.push((index, crash));
    }

    /// The run in progress; a run begun without Surefire's header where
    /// `-q` hides it (and every `[INFO]` line).
    fn run(&mut self) -> &mut Run {
        let module = &self.module;
        self.run.get_or_insert_with(|| Run {
            module: module.clone(),
            ..Run::default()
        })
    }

    /// A line Maven logged outside any class Surefire is running.
    fn logged(&mut self, index: u64, level: Level, rest: &str) {
        if let Some(header) = rest.strip_prefix("--- ") {
            self.plugin_header(index, header);
            return;
        }
        if self.fixed_line(index, rest.trim_end()) {
            return;
        }
        if let Some(rest) = rest.strip_prefix("Failed to execute goal ") {
            self.goal_failed(index, rest);
            return;
        }
        if let Some(class) = rest.strip_prefix("Running ") {
            if level == Level::Info && is_class_name(class.trim()) {
                self.detected(index);
                self.excerpts.end();
                let run = self.run();
                if run.open.len() < MAX_OPEN {
                    run.open.push((index, class.trim().to_owned()));
                }
                run.details = None;
            }
            return;
        }
        if let Some((class, failed)) = class_result(rest) {
            // Outside any class: `-q` hides the `Running` lines.
            self.detected(index);
            self.excerpts.end();
            self.run().details = failed.then(|| class.to_owned());
            return;
        }
        if let Some(totals) = total(rest) {
            self.detected(index);
            self.run();
            self.end_run(Some(totals));
            return;
        }
        if self.failed_test(index, rest) {
            return;
        }
        self.list_entry(index, rest);
    }

    /// A plugin's header (`--- maven-surefire-plugin:3.5.2:test
    /// (default-test) @ core ---`, without its `--- `): it ends the run in
    /// progress, names the module, and a Surefire or Failsafe one begins
    /// a run.
    fn plugin_header(&mut self, index: u64, header: &str) {
        if let Some((plugin, module)) = header
            .strip_suffix(" ---")
            .and_then(|h| h.rsplit_once(" @ "))
        {
            self.detected(index);
            self.end_run(None);
            self.module = Some(module.trim().to_owned());
            if plugin.contains("surefire") || plugin.contains("failsafe") {
                self.run();
            }
        }
    }

    /// A line Maven or Surefire prints whole (`line`, its end trimmed):
    /// `Scanning for projects...`, a run's end with nothing run, Surefire's
    /// header, and the `Results:` section's headers. Whether it was one.
    fn fixed_line(&mut self, index: u64, line: &str) -> bool {
        match line {
            "Scanning for projects..." => {
                self.detected(index);
            }
            // A module with no test to run (or `-DskipTests`): its run
            // ends here, with nothing run.
            "No tests to run." | "Tests are skipped." if self.run.is_some() => {
                self.detected(index);
                self.end_run(Some(Total {
                    run: 0,
                    failed: 0,
                    skipped: 0,
                    flakes: 0,
                }));
            }
            "T E S T S" => {
                self.detected(index);
                self.run();
            }
            "Results:" => {
                let run = self.run();
                run.details = None;
                run.listed = Some(Listed::default());
                run.section = Section::None;
                self.excerpts.end();
            }
            header @ ("Failures:" | "Errors:" | "Flakes:" | "Crashed tests:") => {
                let run = self.run();
                run.details = None;
                // `-q` hides `Results:`: a list that begins again is a new one.
                let listed = run.listed.get_or_insert_with(Listed::default);
                if header == "Failures:" && !listed.is_empty() {
                    *listed = Listed::default();
                }
                run.section = match header {
                    "Failures:" => Section::Failures,
                    "Errors:" => Section::Errors,
                    "Flakes:" => Section::Flakes,
                    _ => Section::Crashed,
                };
                self.excerpts.end();
            }
            _ => return false,
        }
        true
    }

    /// A line of the `Results:` section's part being read: a failure or
    /// error, a flaky test's heading, or a crashed class.
    fn list_entry(&mut self, index: u64, rest: &str) {
        let Some(run) = &mut self.run else {
            return;
        };
        let Some(listed) = &mut run.listed else {
            return;
        };
        match run.section {
            Section::None => {}
            Section::Failures | Section::Errors => {
                let outcome = if run.section == Section::Errors {
                    Outcome::Error
                } else {
                    Outcome::Failed
                };
                if let Some(entry) = entry(index, rest, outcome)
                    && listed.entries.len() < MAX_PER_RUN
                {
                    listed.entries.push(entry);
                }
            }
            Section::Flakes => {
                let head = rest.trim_end();
                if !head.starts_with(' ') && entry(index, head, Outcome::Flaky).is_some() {
                    listed.flakes.push((index, head.to_owned()));
                }
            }
            Section::Crashed => {
                let class = rest.trim();
                if is_class_name(class) && listed.crashed.len() < MAX_PER_RUN {
                    listed.crashed.push((index, class.to_owned()));
                }
            }
        }
    }

    /// A line of the trace of a test named by its method alone: a frame
    /// of that method in a class nested in the test's names the class
    /// (`at com.example.OuterTest$InnerTest.breaks(OuterTest.java:14)`).
    fn refine(&mut self, text: &str) {
        let Some(run) = &mut self.run else {
            return;
        };
        let Some(candidate) = run.refine.and_then(|at| run.candidates.get_mut(at)) else {
            return;
        };
        let Some(frame) = text.trim_start().strip_prefix("at ") else {
            return;
        };
        let Some((called, _)) = frame.split_once('(') else {
            return;
        };
        let Some((class, method)) = called.rsplit_once('.') else {
            return;
        };
        let nested = class
            .strip_prefix(candidate.class.as_str())
            .is_some_and(|rest| rest.starts_with('$'));
        if nested && Some(method) == candidate.method.as_deref().map(bare) {
            candidate.class = class.to_owned();
            run.refine = None;
        }
    }

    /// A failed test's line after its class's result: a candidate. False
    /// where the line is not one.
    fn failed_test(&mut self, index: u64, rest: &str) -> bool {
        let Some(run) = &mut self.run else {
            return false;
        };
        let Some(class) = &run.details else {
            return false;
        };
        let Some((name, outcome)) = failed_test(rest) else {
            return false;
        };
        let bare_method = !name.contains('.') && !name.contains('(');
        let (class, method) = split_test(class, name);
        let mut candidate = Candidate {
            index,
            key: String::new(),
            class,
            method,
            outcome,
        };
        candidate.key = candidate.name();
        self.excerpts.open(&candidate.key);
        run.refine = None;
        if run.candidates.len() < MAX_PER_RUN {
            // 2.22 names a JUnit Platform test by its method alone, and a
            // nested class's by the outer class: its trace may say which.
            if bare_method && candidate.method.is_some() {
                run.refine = Some(run.candidates.len());
            }
            run.candidates.push(candidate);
        }
        true
    }

    /// Maven's `Failed to execute goal …` line: a module that did not
    /// compile is a failure of the module; a fork that died names no test.
    fn goal_failed(&mut self, index: u64, rest: &str) {
        let module = rest
            .split_once(" on project ")
            .map(|(_, after)| after.split([':', ' ']).next().unwrap_or_default());
        let compiler = rest.contains(":maven-compiler-plugin:")
            || rest.contains(":kotlin-maven-plugin:")
            || rest.contains(":scala-maven-plugin:");
        if compiler
            && rest.contains("Compilation failure")
            && let Some(module) = module.filter(|m| !m.is_empty())
        {
            self.detected(index);
            let test = FailingTest::new(module, Runner::Maven, Some(module.to_owned()))
                .with_kind(Kind::Package)
                .with_output(Some("compilation failure".to_owned()), None);
            self.findings.fail(index, test);
        }
    }
}

impl Entry {
    /// Whether this entry lists `candidate`: the same test where the entry
    /// names it whole; else the same class by its simple name (or a class
    /// nested in it, which 2.22 names by its outer class), whatever the
    /// method (Surefire lists the frame of the test's class that threw:
    /// `SetupTest.connect` for the class's own failure).
    fn lists(&self, candidate: &Candidate) -> bool {
        if let Some(whole) = &self.whole {
            let (class, method) = split_whole(whole);
            return class == candidate.class && method == candidate.method;
        }
        let ours = simple(&candidate.class);
        self.class == ours
            || self
                .class
                .strip_prefix(ours)
                .is_some_and(|rest| rest.starts_with('$'))
                && self.method.as_deref() == candidate.method.as_deref().map(bare)
    }
}

impl Recognizer for Maven {
    fn findings(&mut self) -> &mut Findings {
        &mut self.findings
    }

    fn line(&mut self, line: &Line<'_>) {
        let text = &*line.text;
        let Some((level, rest)) = level(text) else {
            // A stack trace line of a failed test's block, or a test's own
            // output.
            if self.excerpts.is_open() {
                if text.is_empty() {
                    self.excerpts.end();
                    if let Some(run) = &mut self.run {
                        run.refine = None;
                    }
                } else {
                    self.refine(text);
                    if !self.excerpts.has_message() {
                        self.excerpts.message(text);
                    }
                    self.excerpts.push(text);
                }
            }
            return;
        };
        let open = self.run.as_ref().is_some_and(|run| !run.open.is_empty());
        if !open && !rest.starts_with(FORK_DIED) {
            self.logged(line.index, level, rest);
            return;
        }
        if rest.starts_with(FORK_DIED) {
            // A test may print this too: a crash it forges fails the run
            // all the same.
            let running = self
                .run
                .as_ref()
                .and_then(|run| run.open.last().map(|(_, class)| class.clone()));
            self.crash(line.index, running.as_deref());
            return;
        }
        // Inside a class: only Surefire's `Running` of a nested class, the
        // result of an open one and the failed tests' lines after it are
        // Surefire's; the rest is the test's.
        if self.failed_test(line.index, rest) {
            return;
        }
        let Some(run) = &mut self.run else {
            return;
        };
        if let Some(class) = rest.strip_prefix("Running ") {
            if level == Level::Info && is_class_name(class.trim()) && run.open.len() < MAX_OPEN {
                run.open.push((line.index, class.trim().to_owned()));
                run.details = None;
            }
        } else if let Some((class, failed)) = class_result(rest)
            && let Some(at) = run.open.iter().rposition(|(_, open)| open == class)
        {
            run.open.remove(at);
            run.details = failed.then(|| class.to_owned());
            self.excerpts.end();
        }
    }

    fn finish(&mut self) -> Findings {
        self.end_run(None);
        std::mem::take(&mut self.findings)
    }

    fn interest(&self) -> &'static Interest {
        if self.excerpts.is_open() {
            &Interest::ALL
        } else {
            &PREFIXED
        }
    }
}

/// How Surefire's JUnit report (`TEST-*.xml`) is read: `Class#method`,
/// the class alone for the class's own failure (3.x: no name; 2.22: the
/// class again); its `<error>` is an exception outside the test's
/// assertions, as its console says.
pub(crate) const JUNIT: crate::junit_case::Junit = crate::junit_case::Junit {
    name: |case| (junit_name(case, false), None),
    kind: |name| {
        if name.contains('#') {
            Kind::Test
        } else {
            Kind::Suite
        }
    },
    errors_apart: true,
    // Surefire (and Failsafe) name their schema on every suite:
    // `xsi:noNamespaceSchemaLocation="…/surefire-test-report.xsd"`.
    schema: "surefire-test-report",
    ..crate::junit_case::Junit::COMMON
};

/// A Java case's name, `Class#method`, or the class alone for the class's
/// own failure; Gradle names that one `classMethod` (`gradle_class`).
pub(crate) fn junit_name(case: &crate::junit_case::Case, gradle_class: bool) -> String {
    let class_itself = case.name.is_empty()
        || case.name == case.classname
        || (gradle_class && case.name == "classMethod");
    if class_itself {
        case.classname.clone()
    } else {
        format!("{}#{}", case.classname, case.name)
    }
}

/// Fragments of this runner's output for the mixed-log property test
/// of `dispatch.rs` (`formats::testing::fragments`).
#[cfg(test)]
pub(crate) const FRAGMENTS: &[&str] = &[
    "[INFO] Scanning for projects...\n",
    "[INFO] --- maven-surefire-plugin:3.5.2:test (default-test) @ core ---\n",
    "[INFO] --- maven-compiler-plugin:3.13.0:testCompile (default-testCompile) @ core ---\n",
    "[INFO]  T E S T S\n",
    "[INFO] Running com.example.CalcTest\n",
    "[INFO] Running com.example.OuterTest$InnerTest\n",
    "[ERROR] Tests run: 4, Failures: 1, Errors: 1, Skipped: 1, Time elapsed: 0.036 s <<< FAILURE! -- in com.example.CalcTest\n",
    "[INFO] Tests run: 1, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 0.009 s -- in com.example.OuterTest$InnerTest\n",
    "[ERROR] Tests run: 1, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: 0 s <<< FAILURE! - in com.example.CalcTest\n",
    "[ERROR] com.example.CalcTest.subtracts -- Time elapsed: 0.001 s <<< FAILURE!\n",
    "[ERROR] com.example.CalcTest -- Time elapsed: 0.003 s <<< ERROR!\n",
    "[ERROR] subtracts(com.example.CalcTest)  Time elapsed: 0 s  <<< FAILURE!\n",
    "[ERROR] squares{int, int}[3]  Time elapsed: 0 s  <<< ERROR!\n",
    "org.opentest4j.AssertionFailedError: expected: <1> but was: <2>\n",
    "\tat com.example.CalcTest.subtracts(CalcTest.java:10)\n",
    "[INFO] Results:\n",
    "[ERROR] Failures: \n",
    "[ERROR] Errors: \n",
    "[WARNING] Flakes: \n",
    "[ERROR] Crashed tests:\n",
    "[ERROR]   CalcTest.subtracts:10 expected: <1> but was: <2>\n",
    "[ERROR]   SetupTest.connect:7 IllegalState no database\n",
    "[ERROR] com.example.ParamTest.squares(int, int)[3]\n",
    "[ERROR]   Run 1: ParamTest.squares:16 expected: <10> but was: <9>\n",
    "[WARNING] com.example.FlakyTest.eventually\n",
    "[INFO]   Run 2: PASS\n",
    "[ERROR] com.example.CrashTest\n",
    "[ERROR] Tests run: 17, Failures: 5, Errors: 2, Skipped: 1\n",
    "[WARNING] Tests run: 17, Failures: 0, Errors: 0, Skipped: 1, Flakes: 1\n",
    "[INFO] Tests run: 0, Failures: 0, Errors: 0, Skipped: 0\n",
    "[ERROR] Failed to execute goal org.apache.maven.plugins:maven-compiler-plugin:3.13.0:testCompile (default-testCompile) on project junit5: Compilation failure\n",
    "[ERROR] Failed to execute goal org.apache.maven.plugins:maven-surefire-plugin:3.5.2:test (default-test) on project junit5: There are test failures.\n",
    "[INFO] BUILD FAILURE\n",
    "[ERROR] ",
    "[INFO] ",
    " -- Time elapsed: 0 s <<< FAILURE!\n",
    "\n",
];

#[cfg(test)]
mod tests {
    use super::*;

    fn report(log: &str) -> crate::Report {
        crate::parse(Runner::Maven, log)
    }

    fn names(log: &str) -> Vec<String> {
        report(log).names().map(str::to_owned).collect()
    }

    /// One class that failed (3.x), its results, and the run's total.
    const FAILED: &str = "\
[INFO] --- maven-surefire-plugin:3.5.2:test (default-test) @ calc ---
[INFO]  T E S T S
[INFO] Running com.example.CalcTest
[ERROR] Tests run: 2, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: 0.1 s <<< FAILURE! -- in com.example.CalcTest
[ERROR] com.example.CalcTest.subtracts -- Time elapsed: 0.01 s <<< FAILURE!
org.opentest4j.AssertionFailedError: expected: <1> but was: <2>
\tat com.example.CalcTest.subtracts(CalcTest.java:10)

[INFO] Results:
[ERROR] Failures: 
[ERROR]   CalcTest.subtracts:10 expected: <1> but was: <2>
[ERROR] Tests run: 2, Failures: 1, Errors: 0, Skipped: 0
";

    #[test]
    fn a_failed_test_is_its_class_and_method_with_its_trace() {
        let report = report(FAILED);
        assert_eq!(report.format, Some(Runner::Maven));
        let test = &report.failing[0];
        assert_eq!(test.name, "com.example.CalcTest#subtracts");
        assert_eq!(test.context.as_deref(), Some("calc"));
        assert_eq!(
            test.message.as_deref(),
            Some("org.opentest4j.AssertionFailedError: expected: <1> but was: <2>")
        );
        assert_eq!(report.counts.failed, Some(1));
        assert_eq!(report.counts.passed, Some(1));
        assert_eq!(report.unclosed, None);
    }

    #[test]
    fn surefires_lines_a_test_prints_inside_its_class_name_nothing() {
        // LiarTest prints a failure, a list and a total of its own
        // between `Running` and its class's result.
        let log = "\
[INFO]  T E S T S
[INFO] Running com.example.LiarTest
[ERROR] Tests run: 1, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: 0.01 s <<< FAILURE! -- in com.example.ForgedTest
[ERROR] com.example.ForgedTest.forged -- Time elapsed: 0.002 s <<< FAILURE!
[INFO] Results:
[ERROR] Failures: 
[ERROR]   ForgedTest.forged:9 forged
[ERROR] Tests run: 1, Failures: 1, Errors: 0, Skipped: 0
[INFO] Tests run: 1, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 0.009 s -- in com.example.LiarTest
[INFO] Results:
[INFO] Tests run: 1, Failures: 0, Errors: 0, Skipped: 0
";
        let report = report(log);
        assert!(report.failing.is_empty(), "{report:?}");
        assert_eq!(report.counts.failed, Some(0));
    }

    #[test]
    fn a_total_that_counts_no_failure_drops_every_candidate() {
        // A test closed its own class with a forged result and printed a
        // failure after it: Surefire's total (the last) counts none.
        let log = "\
[INFO]  T E S T S
[INFO] Running com.example.LiarTest
[ERROR] Tests run: 1, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: 0 s <<< FAILURE! -- in com.example.LiarTest
[ERROR] com.example.LiarTest.forged -- Time elapsed: 0 s <<< FAILURE!
[INFO] Results:
[INFO] Tests run: 1, Failures: 0, Errors: 0, Skipped: 0
";
        assert!(names(log).is_empty());
    }

    #[test]
    fn a_candidate_the_list_does_not_name_is_dropped() {
        let log = FAILED.replace(
            "[INFO] Results:",
            "[INFO] Running com.example.LiarTest\n\
             [ERROR] Tests run: 1, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: 0 s <<< FAILURE! -- in com.example.LiarTest\n\
             [ERROR] com.example.LiarTest.forged -- Time elapsed: 0 s <<< FAILURE!\n\
             [INFO] Results:",
        );
        assert_eq!(names(&log), ["com.example.CalcTest#subtracts"]);
    }

    #[test]
    fn surefire_2_names_a_nested_class_by_its_trace_or_its_list() {
        let log = "\
[INFO]  T E S T S
[INFO] Running com.example.OuterTest
[ERROR] Tests run: 3, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: 0 s <<< FAILURE! - in com.example.OuterTest
[ERROR] breaks  Time elapsed: 0 s  <<< FAILURE!
org.opentest4j.AssertionFailedError: inner
\tat com.example.OuterTest$InnerTest.breaks(OuterTest.java:14)

";
        // Cut before the list: the trace says which class.
        assert_eq!(names(log), ["com.example.OuterTest$InnerTest#breaks"]);
        let untraced = log.replace(
            "\tat com.example.OuterTest$InnerTest.breaks(OuterTest.java:14)\n",
            "",
        );
        let listed = format!(
            "{untraced}[INFO] Results:\n[ERROR] Failures: \n[ERROR]   OuterTest$InnerTest.breaks:14 inner\n[ERROR] Tests run: 3, Failures: 1, Errors: 0, Skipped: 0\n"
        );
        assert_eq!(names(&listed), ["com.example.OuterTest$InnerTest#breaks"]);
    }

    #[test]
    fn class_results_and_totals_must_not_fire_on_each_other_or_on_prose() {
        assert!(class_result("Tests run: 1, Failures: 0, Errors: 0, Skipped: 0").is_none());
        assert!(
            total("Tests run: 1, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 0 s -- in a.B")
                .is_none()
        );
        assert!(total("Tests run: many, Failures: 0, Errors: 0, Skipped: 0").is_none());
        assert!(total("Tests run: 3, and then some").is_none());
        assert!(class_result("Tests run: 1 - in the morning").is_none());
        assert!(failed_test("the build -- Time elapsed: 3 s").is_none());
        assert!(level("[INFO]Running a.B").is_none());
        assert!(entry(0, "  Run 1: CalcTest.subtracts:10 x", Outcome::Failed).is_none());
        assert!(entry(0, "see the log for more", Outcome::Failed).is_none());
    }

    #[test]
    fn a_rerun_that_passed_is_flaky_and_a_quiet_one_is_counted() {
        let log = "\
[INFO]  T E S T S
[INFO] Results:
[WARNING] Flakes: 
[WARNING] com.example.FlakyTest.eventually
[ERROR]   Run 1: FlakyTest.eventually:10 try 1
[INFO]   Run 2: PASS
[WARNING] Tests run: 3, Failures: 0, Errors: 0, Skipped: 0, Flakes: 1
";
        let report = report(log);
        assert_eq!(report.flaky, ["com.example.FlakyTest#eventually"]);
        assert!(report.failing.is_empty());
        let quiet = crate::parse(
            Runner::Maven,
            "[ERROR] Tests run: 3, Failures: 1, Errors: 0, Skipped: 0, Flakes: 1\n",
        );
        assert_eq!((quiet.reruns, quiet.flaky.len()), (1, 0));
    }

    #[test]
    fn a_fork_that_died_is_a_crash_of_the_module_while_its_class_ran() {
        let log = "\
[INFO] --- maven-surefire-plugin:3.5.2:test (default-test) @ calc ---
[INFO]  T E S T S
[INFO] Running com.example.CrashTest
[INFO] Results:
[ERROR] Failures: 
[ERROR] The forked VM terminated without properly saying goodbye. VM crash or System.exit called?
";
        let report = report(log);
        assert_eq!(report.crashes.len(), 1);
        assert_eq!(report.crashes[0].binary.as_deref(), Some("calc"));
        assert_eq!(
            report.crashes[0].running.as_deref(),
            Some("com.example.CrashTest")
        );
        assert_eq!(report.running, ["com.example.CrashTest"]);
        assert!(report.unclosed.is_some());
    }

    #[test]
    fn a_module_with_no_test_closes_its_run_with_nothing_run() {
        let log = "\
[INFO] --- maven-surefire-plugin:3.5.2:test (default-test) @ api ---
[INFO] No tests to run.
[INFO] --- maven-surefire-plugin:3.5.2:test (default-test) @ core ---
[INFO] Tests are skipped.
";
        let report = report(log);
        assert_eq!(report.unclosed, None);
        assert!(report.no_tests_ran);
        // Outside a run it is prose.
        assert_eq!(
            crate::parse(Runner::Maven, "[INFO] No tests to run.\n").format,
            None
        );
    }

    #[test]
    fn a_module_that_did_not_compile_is_a_package_and_names_no_test() {
        let log = "\
[INFO] Scanning for projects...
[ERROR] COMPILATION ERROR : 
[ERROR] Failed to execute goal org.apache.maven.plugins:maven-compiler-plugin:3.13.0:testCompile (default-testCompile) on project calc: Compilation failure
";
        let report = report(log);
        assert_eq!(report.names().collect::<Vec<_>>(), ["calc"]);
        assert_eq!(report.failing[0].kind, Kind::Package);
        // Surefire's own failed goal is no compilation failure.
        let tests = "[ERROR] Failed to execute goal org.apache.maven.plugins:maven-surefire-plugin:3.5.2:test (default-test) on project calc: There are test failures.\n";
        assert!(names(tests).is_empty());
    }

    proptest::proptest! {
        /// Any mix of Surefire's lines, whole or chunked, gives one report
        /// and never panics.
        #[test]
        fn chunked_equals_whole(
            pieces in proptest::collection::vec(crate::formats::testing::piece(&[
                "[INFO]  T E S T S\n",
                "[INFO] Running a.B\n",
                "[ERROR] Tests run: 1, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: 0 s <<< FAILURE! -- in a.B\n",
                "[ERROR] a.B.m -- Time elapsed: 0 s <<< FAILURE!\n",
                "[INFO] Results:\n",
                "[ERROR] Failures: \n",
                "[ERROR]   B.m:1 x\n",
                "[ERROR] Tests run: 1, Failures: 1, Errors: 0, Skipped: 0\n",
                "\tat a.B$C.m(B.java:1)\n",
                "\n",
            ]), 0..30)
        ) {
            crate::formats::testing::chunked_equals_whole(Runner::Maven, &pieces.concat())?;
        }
    }
}
