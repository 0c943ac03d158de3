//! The words of a batch's progress: which checks are running, by id, and
//! the time left, smoothed so that one slow or fast check does not swing it.

use std::time::Duration;

use serde_json::Value;

/// The longest id shown in the progress line; a longer one is cut with `…`.
const MAX_ID: usize = 24;

/// How many characters of ids the progress line shows at most; the rest
/// are counted (`+3`).
const MAX_IDS: usize = 60;

/// The weight of each new duration in the running mean, once the first
/// `1 / WEIGHT` checks have set it.
const WEIGHT: f64 = 0.1;

/// The time a check takes, as an exponentially weighted mean of the
/// durations of the checks that ran.
///
/// Why this and not the rate of the last seconds (indicatif's own estimate,
/// which swung from 37 s to 60 min to 8 s): checks end in bursts, seconds
/// to minutes apart, so a rate over a window of seconds sees nothing, then
/// everything. A mean per check changes only when a check ends, and by at
/// most `WEIGHT` of the difference, in constant memory (a median would
/// hold every duration); it still follows a manifest whose later projects
/// are slower. The first checks are averaged plainly (weight `1/n`), so the
/// first one does not count ten times as much as the next.
#[derive(Debug, Default, Clone)]
pub(super) struct CheckDuration {
    /// The mean in seconds; `None` before the first check ended.
    mean: Option<f64>,
    /// How many durations were recorded.
    samples: u64,
}

impl CheckDuration {
    /// One more check ran for `took`.
    pub(super) fn record(&mut self, took: Duration) {
        self.samples += 1;
        let took = took.as_secs_f64();
        let weight = WEIGHT.max(1.0 / self.samples as f64);
        self.mean = Some(match self.mean {
            None => took,
            Some(mean) => mean + weight * (took - mean),
        });
    }

    /// The time left for `remaining` checks, `jobs` at a time; `None`
    /// before any check ended.
    pub(super) fn left(&self, remaining: u64, jobs: usize) -> Option<Duration> {
        let mean = self.mean?;
        let at_once = (jobs as u64).clamp(1, remaining.max(1));
        let seconds = mean * remaining as f64 / at_once as f64;
        Duration::try_from_secs_f64(seconds).ok()
    }
}

/// An id as the progress line shows it: a string as itself, another value
/// as its JSON, cut to [`MAX_ID`] characters.
pub(super) fn label(id: &Value) -> String {
    let text = match id {
        Value::String(text) => text.clone(),
        other @ (Value::Null
        | Value::Bool(_)
        | Value::Number(_)
        | Value::Array(_)
        | Value::Object(_)) => other.to_string(),
    };
    // Control characters would move the terminal's cursor.
    let text: String = text
        .chars()
        .map(|c| if c.is_control() { '?' } else { c })
        .collect();
    if text.chars().count() <= MAX_ID {
        return text;
    }
    let mut cut: String = text.chars().take(MAX_ID - 1).collect();
    cut.push('…');
    cut
}

/// A time left as the progress line says it: `45s`, `3m05s`, `2h10m`, or
/// `?` before any estimate.
pub(super) fn eta(left: Option<Duration>) -> String {
    let Some(left) = left else {
        return "?".to_owned();
    };
    let seconds = left.as_secs();
    match (seconds / 3600, seconds / 60 % 60, seconds % 60) {
        (0, 0, s) => format!("{s}s"),
        (0, m, s) => format!("{m}m{s:02}s"),
        (h, m, _) => format!("{h}h{m:02}m"),
    }
}

/// The progress line after the bar: the counts, the time left, then the
/// running checks by id, as many as fit in [`MAX_IDS`] characters and the
/// number of the others. The ids come last: where the terminal is narrow,
/// they are what is cut.
pub(super) fn line(counts: &str, left: Option<Duration>, running: &[String]) -> String {
    let mut text = format!("{counts} · eta {} · running {}", eta(left), running.len());
    let mut shown = 0;
    let mut width = 0;
    for (index, id) in running.iter().enumerate() {
        let length = id.chars().count();
        if index > 0 && width + length > MAX_IDS {
            break;
        }
        text.push_str(if index == 0 { ": " } else { ", " });
        text.push_str(id);
        width += length + 2;
        shown += 1;
    }
    if shown < running.len() {
        text.push_str(&format!(" +{}", running.len() - shown));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seconds(s: u64) -> Duration {
        Duration::from_secs(s)
    }

    #[test]
    fn the_first_checks_are_averaged_plainly() {
        let mut took = CheckDuration::default();
        assert_eq!(took.left(10, 2), None, "no estimate before a check ended");
        took.record(seconds(10));
        assert_eq!(took.left(4, 2), Some(seconds(20)));
        took.record(seconds(30));
        assert_eq!(took.left(1, 1), Some(seconds(20)), "the mean of 10 and 30");
    }

    #[test]
    fn one_outlier_moves_the_estimate_by_a_tenth_of_its_difference() {
        let mut took = CheckDuration::default();
        for _ in 0..20 {
            took.record(seconds(30));
        }
        assert_eq!(took.left(100, 4), Some(seconds(750)));
        // One check of an hour among checks of half a minute: the estimate
        // grows by a tenth of the difference, not to an hour per check.
        took.record(seconds(3600));
        let after = took.left(100, 4).unwrap().as_secs();
        assert_eq!(after, (30 + 357) * 25, "{after}");
        // And a check that ends at once does not drop it to nothing.
        took.record(Duration::ZERO);
        let after = took.left(100, 4).unwrap().as_secs_f64();
        assert!((after - 387.0 * 0.9 * 25.0).abs() < 1.0, "{after}");
    }

    #[test]
    fn fewer_checks_left_than_jobs_run_at_once() {
        let mut took = CheckDuration::default();
        took.record(seconds(60));
        assert_eq!(took.left(1, 8), Some(seconds(60)));
        assert_eq!(took.left(0, 8), Some(Duration::ZERO));
    }

    #[test]
    fn the_time_left_in_words() {
        for (left, words) in [
            (None, "?"),
            (Some(seconds(45)), "45s"),
            (Some(seconds(185)), "3m05s"),
            (Some(seconds(7800)), "2h10m"),
        ] {
            assert_eq!(eta(left), words);
        }
    }

    #[test]
    fn ids_are_shown_as_written_and_cut_to_fit() {
        assert_eq!(label(&Value::from("django-1234")), "django-1234");
        assert_eq!(label(&Value::from(7)), "7");
        assert_eq!(label(&serde_json::json!({"a": 1})), r#"{"a":1}"#);
        let long = label(&Value::from("a".repeat(40)));
        assert_eq!(long, format!("{}…", "a".repeat(23)));
        assert_eq!(label(&Value::from("a\u{1b}[2Jb")), "a?[2Jb");
    }

    #[test]
    fn the_line_names_the_running_checks_after_the_time_left() {
        let counts = "pass 3 fail 1 inconclusive 0";
        assert_eq!(
            line(counts, Some(seconds(90)), &["a".into(), "b".into()]),
            "pass 3 fail 1 inconclusive 0 · eta 1m30s · running 2: a, b"
        );
        assert_eq!(
            line(counts, None, &[]),
            "pass 3 fail 1 inconclusive 0 · eta ? · running 0"
        );
        let many: Vec<String> = (0..8).map(|n| format!("{n}{}", "x".repeat(20))).collect();
        let text = line(counts, None, &many);
        assert!(
            text.ends_with(&format!(": {}, {} +6", many[0], many[1])),
            "{text}"
        );
    }
}
