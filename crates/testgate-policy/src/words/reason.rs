//! The reason text: bounded, names first, the end of the output last.

/// The most failing names a reason lists; the rest are counted ("and 12
/// more"). The full list stays in [`Verdict::Fail`](crate::Verdict::Fail)'s
/// `failing`.
pub const MAX_NAMES: usize = 50;

/// The most bytes a reason holds, names and output together.
pub const MAX_REASON: usize = 8 * 1024;

/// The longest a name may be in the reason before it is cut: one runaway
/// name must not crowd out the others. The full name stays in `failing`.
pub(crate) const MAX_NAME: usize = 512;

/// The longest a line of ours (a sentence, a note) may be before it is cut.
const MAX_LINE: usize = 2048;

/// Room always kept for the `and N more` line, so that a cut list still
/// says how much was cut.
const MORE_ROOM: usize = 32;

/// Below this many bytes of room the tail is left out: a few bytes of a
/// summary mislead more than they tell.
const MIN_TAIL: usize = 64;

/// The reason under construction. Every push respects [`MAX_REASON`]: the
/// text never grows past it, whatever is pushed.
#[derive(Debug, Default)]
pub(crate) struct Reason {
    text: String,
    names_listed: usize,
}

impl Reason {
    pub(crate) fn new() -> Self {
        Reason::default()
    }

    fn room(&self) -> usize {
        let separator = usize::from(!self.text.is_empty());
        MAX_REASON.saturating_sub(self.text.len() + separator)
    }

    /// Appends `line` (cut to [`MAX_LINE`] and to the room left), keeping
    /// `reserve` bytes free for what must follow.
    fn push_reserving(&mut self, line: &str, reserve: usize) -> bool {
        let line = cut_end(line, MAX_LINE);
        let room = self.room().saturating_sub(reserve);
        if room == 0 {
            return false;
        }
        let line = cut_end(&line, room);
        if !self.text.is_empty() {
            self.text.push('\n');
        }
        self.text.push_str(&line);
        true
    }

    /// Appends one line of ours.
    pub(crate) fn line(&mut self, line: &str) {
        self.push_reserving(line, 0);
    }

    /// Appends the names, one a line, each followed by `suffix(name)`, as
    /// many as [`MAX_NAMES`] (shared by every list of this reason) and the
    /// room allow, then `and N more` for the rest.
    pub(crate) fn names(&mut self, names: &[&str], suffix: impl Fn(&str) -> String) {
        self.names_before(names, suffix, &[]);
    }

    /// [`names`](Reason::names), keeping room for `after`: the lines that
    /// must follow the list whole, because they say what the names mean.
    pub(crate) fn names_before(
        &mut self,
        names: &[&str],
        suffix: impl Fn(&str) -> String,
        after: &[&str],
    ) {
        self.names_placed(names, |_, name| suffix(name), after);
    }

    /// [`names_before`](Reason::names_before), the suffix told each name's
    /// index in `names`: two names alike (one test's name in two files)
    /// each get their own.
    pub(crate) fn names_placed(
        &mut self,
        names: &[&str],
        suffix: impl Fn(usize, &str) -> String,
        after: &[&str],
    ) {
        let reserve: usize = after.iter().map(|l| l.len().min(MAX_LINE) + 1).sum();
        let total = names.len();
        let mut shown = 0;
        for (index, name) in names.iter().copied().enumerate() {
            if self.names_listed >= MAX_NAMES {
                break;
            }
            let line = format!("{}{}", cut_end(name, MAX_NAME), suffix(index, name));
            // A name that does not fit in the room left is counted, not cut:
            // half a name is a name that does not exist.
            if line.len() + 1 + MORE_ROOM + reserve > self.room() {
                break;
            }
            self.push_reserving(&line, 0);
            self.names_listed += 1;
            shown += 1;
        }
        if shown < total {
            self.line(&format!("and {} more", total - shown));
        }
    }

    /// Appends `header` and then as much of the END of `tail` as fits, since
    /// runners put their summary last. Nothing when the output was empty or
    /// too little room is left.
    pub(crate) fn tail(&mut self, header: &str, tail: &str) {
        let tail = tail.trim_end_matches(['\n', '\r']);
        if tail.trim().is_empty() {
            return;
        }
        let header = cut_end(header, MAX_LINE);
        let room = self.room().saturating_sub(header.len() + 1);
        if room < MIN_TAIL {
            return;
        }
        self.line(&header);
        let kept = keep_end(tail, room);
        if !self.text.is_empty() {
            self.text.push('\n');
        }
        self.text.push_str(&kept);
    }

    pub(crate) fn finish(self) -> String {
        debug_assert!(self.text.len() <= MAX_REASON);
        self.text
    }
}

/// `text` cut to at most `max` bytes at a char boundary, ending in `…` when
/// cut.
pub(crate) fn cut_end(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_owned();
    }
    let ellipsis = "…";
    if max < ellipsis.len() {
        return String::new();
    }
    let mut end = max - ellipsis.len();
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}{ellipsis}", &text[..end])
}

/// The end of `text` in at most `max` bytes, starting at a char boundary,
/// opened by `…` when its head was cut.
fn keep_end(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_owned();
    }
    let ellipsis = "…";
    if max < ellipsis.len() {
        return String::new();
    }
    let mut start = text.len() - (max - ellipsis.len());
    while !text.is_char_boundary(start) {
        start += 1;
    }
    format!("{ellipsis}{}", &text[start..])
}

/// `1 test` or `3 tests`.
pub(crate) fn tests(n: usize) -> String {
    if n == 1 {
        "1 test".to_owned()
    } else {
        format!("{n} tests")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cuts_respect_char_boundaries() {
        let text = "ééééé"; // 10 bytes
        for max in 0..12 {
            let cut = cut_end(text, max);
            assert!(cut.len() <= max.max(text.len().min(max)), "{max}: {cut}");
            let kept = keep_end(text, max);
            assert!(kept.len() <= max, "{max}: {kept}");
        }
        assert_eq!(keep_end("abcdefgh", 6), "…fgh");
        assert_eq!(cut_end("abcdefgh", 6), "abc…");
    }

    #[test]
    fn names_are_capped_and_counted() {
        let names: Vec<String> = (0..MAX_NAMES + 7).map(|i| format!("t{i}")).collect();
        let mut reason = Reason::new();
        reason.names(
            &names.iter().map(String::as_str).collect::<Vec<_>>(),
            |_| String::new(),
        );
        let text = reason.finish();
        assert!(text.starts_with("t0\nt1\n"));
        assert!(text.ends_with("\nand 7 more"), "{text}");
    }

    #[test]
    fn the_tail_keeps_its_end_and_never_pushes_names_out() {
        let names: Vec<String> = (0..MAX_NAMES).map(|i| format!("test_{i}")).collect();
        let tail = format!("{}SUMMARY", "x".repeat(3 * MAX_REASON));
        let mut reason = Reason::new();
        reason.names(
            &names.iter().map(String::as_str).collect::<Vec<_>>(),
            |_| String::new(),
        );
        reason.tail("the end of the output:", &tail);
        let text = reason.finish();
        assert!(text.len() <= MAX_REASON);
        assert!(text.ends_with("SUMMARY"));
        assert!(names.iter().all(|n| text.contains(n.as_str())));
    }

    #[test]
    fn long_names_are_counted_not_cut_and_the_bound_holds() {
        let names: Vec<String> = (0..40).map(|i| format!("{i}{}", "n".repeat(400))).collect();
        let mut reason = Reason::new();
        reason.line("opening");
        reason.names(
            &names.iter().map(String::as_str).collect::<Vec<_>>(),
            |_| " (sometimes)".into(),
        );
        let text = reason.finish();
        assert!(text.len() <= MAX_REASON, "{}", text.len());
        assert!(text.contains("more"));
    }
}
