//! A log's sections: one per runner per CI step.
//!
//! A job that runs `cargo test`, then `pytest`, then `go test` writes one
//! log. Each runner's lines are read by its own recogniser; the sections
//! say which runner ran in which CI step (the step's command where the CI
//! names it: [`crate::ci::step_of`]) over which lines, and which failing
//! tests each named. Within a step, a runner's section runs from the
//! first line that was unmistakably its own to the next runner's, so two
//! runners in one step (`make test`) are two sections.
//!
//! A runner whose lines in a step lie within another runner's (a pytest
//! session a cargo test printed: [`nested`]) is that runner's output, not
//! a run: its failing tests are the enclosing section's
//! [`printed`](Section::printed), never a section's `failing`. The report
//! keeps them: a gate weighs a pass that prints failures as it always did.

use crate::ci::Step;
use crate::formats::MAX_SPANS;
use crate::report::Section;
use crate::runner::Runner;

/// The most bytes of a step's label kept.
const MAX_LABEL: usize = 512;

/// The CI steps met so far.
#[derive(Debug, Default)]
pub(crate) struct Steps {
    /// Each step's first line and label, in order.
    starts: Vec<(u64, Option<String>)>,
    /// The last step began with a name and awaits its command.
    awaits_command: bool,
    /// A CI that echoes commands as `$ …` was seen (GitLab, Buildkite).
    pub(crate) echoes: bool,
}

impl Steps {
    /// The line at `index` is `step`'s: whether a step began there (a
    /// command after a named step only names it).
    pub(crate) fn begin(&mut self, index: u64, step: Step<'_>) -> bool {
        let label = Some(bounded(step.label)).filter(|label| !label.is_empty());
        if step.is_command && self.awaits_command {
            self.awaits_command = false;
            if let (Some(last), Some(label)) = (self.starts.last_mut(), label) {
                last.1 = Some(label);
            }
            return false;
        }
        if self.starts.len() >= MAX_SPANS {
            return false;
        }
        self.awaits_command = !step.is_command;
        self.starts.push((index, label));
        true
    }
}

/// `label`, cut to [`MAX_LABEL`] bytes at a character's boundary.
fn bounded(label: &str) -> String {
    let mut end = label.len().min(MAX_LABEL);
    while !label.is_char_boundary(end) {
        end -= 1;
    }
    label[..end].to_owned()
}

/// A runner's spans (first and last detected line, one per step).
pub(crate) type Spans<'a> = (Runner, &'a [(u64, u64)]);

/// The spans of each runner that lie strictly within another runner's
/// span: its lines there are the other runner's output.
pub(crate) fn nested(runners: &[Spans<'_>]) -> Vec<Vec<(u64, u64)>> {
    runners
        .iter()
        .map(|(runner, spans)| {
            spans
                .iter()
                .filter(|(first, last)| {
                    runners.iter().any(|(other, others)| {
                        other != runner
                            && others
                                .iter()
                                .any(|(start, end)| start < first && last < end)
                    })
                })
                .copied()
                .collect()
        })
        .collect()
}

/// The sections of a log of `lines` lines, from its steps and each
/// runner's spans (`runners`: those left after [`nested`]; `nested`: the
/// others), the failing tests (line and runner of each) assigned to them.
pub(crate) fn sections(
    steps: &Steps,
    lines: u64,
    runners: &[Spans<'_>],
    nested: &[Spans<'_>],
    failing: &[(u64, Runner)],
) -> Vec<Section> {
    let last_line = lines.saturating_sub(1);
    let bounds = step_bounds(steps);
    let mut sections = Vec::new();
    for (at, (start, label)) in bounds.iter().enumerate() {
        let end = bounds
            .get(at + 1)
            .map_or(last_line, |(next, _)| next.saturating_sub(1));
        step_sections(&mut sections, (*start, end), *label, runners);
    }
    tile(&mut sections, last_line);
    assign_failing(&mut sections, nested, failing);
    sections
}

/// Each step's first line and label; the lines before the first step are
/// a step without a label.
fn step_bounds(steps: &Steps) -> Vec<(u64, Option<&str>)> {
    let mut bounds: Vec<(u64, Option<&str>)> = Vec::with_capacity(steps.starts.len() + 1);
    if steps.starts.first().is_none_or(|(first, _)| *first > 0) {
        bounds.push((0, None));
    }
    bounds.extend(
        steps
            .starts
            .iter()
            .map(|(first, label)| (*first, label.as_deref())),
    );
    bounds
}

/// Pushes onto `sections` one section per runner whose span begins in the
/// step over lines `start..=end`: each from its first line (the step's
/// start, for the first) to the line before the next runner's.
fn step_sections(
    sections: &mut Vec<Section>,
    (start, end): (u64, u64),
    label: Option<&str>,
    runners: &[Spans<'_>],
) {
    let mut here: Vec<(u64, Runner)> = runners
        .iter()
        .flat_map(|(runner, spans)| {
            spans
                .iter()
                .filter(|(first, _)| (start..=end).contains(first))
                .map(|(first, _)| (*first, *runner))
        })
        .collect();
    here.sort_unstable();
    for (nth, (first, runner)) in here.iter().enumerate() {
        let first_line = if nth == 0 { start } else { *first };
        let last_line = here
            .get(nth + 1)
            .map_or(end, |(next, _)| next.saturating_sub(1).max(first_line));
        sections.push(Section {
            runner: *runner,
            step: label.map(str::to_owned),
            first_line,
            last_line,
            failing: Vec::new(),
            printed: Vec::new(),
        });
    }
}

/// The sections tile the log: lines no runner's section holds (a step
/// that ran none, a CI's header) go to the section before them, or to
/// the first.
fn tile(sections: &mut [Section], last_line: u64) {
    let starts: Vec<u64> = sections.iter().map(|section| section.first_line).collect();
    for (nth, section) in sections.iter_mut().enumerate() {
        if nth == 0 {
            section.first_line = 0;
        }
        section.last_line = starts.get(nth + 1).map_or(last_line, |next| {
            next.saturating_sub(1).max(section.first_line)
        });
    }
}

/// Assigns each failing test (its index in `failing`) to a section: to the
/// enclosing section's `printed` when a `nested` span of its runner holds
/// its line, else to the `failing` of its runner's last section begun by
/// its line (or its runner's first).
fn assign_failing(sections: &mut [Section], nested: &[Spans<'_>], failing: &[(u64, Runner)]) {
    for (nth, (line, runner)) in failing.iter().enumerate() {
        let printed = nested.iter().any(|(other, spans)| {
            other == runner
                && spans
                    .iter()
                    .any(|(first, last)| (*first..=*last).contains(line))
        });
        if printed {
            let within = sections
                .iter_mut()
                .find(|section| (section.first_line..=section.last_line).contains(line));
            if let Some(within) = within {
                within.printed.push(nth);
                continue;
            }
        }
        let own = |section: &&mut Section| section.runner == *runner;
        let home = sections
            .iter_mut()
            .filter(own)
            .rev()
            .find(|section| section.first_line <= *line);
        let home = match home {
            Some(home) => Some(home),
            None => sections
                .iter_mut()
                .find(|section| section.runner == *runner),
        };
        if let Some(home) = home {
            home.failing.push(nth);
        }
    }
}
