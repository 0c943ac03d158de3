//! The dispatch of each line to the recognisers: classified once, given
//! only to those whose interest holds its class.

use std::borrow::Cow;

use crate::ci::{self, LastService, Step, Text};
use crate::formats::{Interest, LineKey, Recognizer};
use crate::line::Line;
use crate::runner::Runner;
use crate::scans::Scans;
use crate::sections::Steps;

/// The parser's parts that each line goes through.
pub(crate) struct Dispatch<'p> {
    pub(crate) recognizers: &'p mut [(Runner, Box<dyn Recognizer + Send>)],
    pub(crate) interests: &'p mut [&'static Interest],
    pub(crate) readers: &'p mut Readers,
    /// Every line to every recogniser, whatever their interests.
    pub(crate) every_line: bool,
    /// Lines read so far: the next line's index.
    pub(crate) lines: &'p mut u64,
    /// The CI steps met so far.
    pub(crate) steps: &'p mut Steps,
    /// The last `docker compose` prefix met.
    pub(crate) service: &'p mut LastService,
    /// The environment and coverage scans, which read every line.
    pub(crate) scans: Option<&'p mut Scans>,
}

impl Dispatch<'_> {
    /// Gives the line to the recognisers that read its class, once
    /// classified: in auto mode most lines are foreign to most recognisers.
    /// A line the CI wrote (a step marker, an annotation) counts as a line
    /// and goes nowhere; the others go without the CI's prefixes.
    pub(crate) fn line(&mut self, text: &str) {
        let index = *self.lines;
        *self.lines += 1;
        let text = match self.service.of(text) {
            Text::Runner(text) => text,
            Text::Ci(said) => {
                if said.starts_with("section_start:") {
                    self.steps.echoes = true;
                }
                if let Some(step) = ci::step_of(said) {
                    self.step(index, step);
                }
                return;
            }
        };
        match text.as_bytes().first() {
            Some(b'$') if self.steps.echoes => {
                if let Some(command) = ci::echoed_command(text) {
                    self.step(index, Step::command(command));
                }
            }
            Some(b'~') if ci::is_buildkite_header(text) => self.steps.echoes = true,
            _ => {}
        }
        let line = Line {
            text: Cow::Borrowed(text),
            index,
        };
        if let Some(scans) = self.scans.as_deref_mut() {
            scans.line(text);
        }
        if self.every_line {
            for (_, recognizer) in self.recognizers.iter_mut() {
                recognizer.line(&line);
            }
            return;
        }
        let mut readers = self.readers.of(LineKey::of(text), self.interests);
        // In the recognisers' order, as a loop over all of them would.
        while readers != 0 {
            let at = readers.trailing_zeros() as usize;
            readers &= readers - 1;
            let (Some((_, recognizer)), Some(interest)) =
                (self.recognizers.get_mut(at), self.interests.get_mut(at))
            else {
                break;
            };
            recognizer.line(&line);
            let now = recognizer.interest();
            if !std::ptr::eq(now, *interest) {
                *interest = now;
                self.readers.forget();
            }
        }
    }

    /// The line at `index` is a CI step's: the recognisers are told where a
    /// new one begins.
    fn step(&mut self, index: u64, step: Step<'_>) {
        if self.steps.begin(index, step) {
            for (_, recognizer) in self.recognizers.iter_mut() {
                recognizer.findings().step(index);
            }
        }
    }
}

/// Which recognisers read each class of line, one bit per recogniser,
/// worked out from their interests the first time a key (an end) is met
/// and kept until an interest changes: most lines then cost a lookup, not
/// a test per recogniser. A change only makes the cache stale (a new
/// generation), so a log whose every line changes a recogniser's state
/// costs what testing each recogniser on each line would.
pub(crate) struct Readers {
    generation: u32,
    /// Per [`LineKey::key`]: the generation it was worked out in, the
    /// recognisers that read it whatever its end, those that read it with
    /// some ends.
    by_key: Vec<(u32, Mask, Mask)>,
    /// Per last byte: the generation, the recognisers whose ends hold it.
    by_end: Vec<(u32, Mask)>,
}

/// A set of recognisers, one bit each, in the recognisers' order.
type Mask = u32;

const _: () = assert!(
    Runner::ALL.len() <= Mask::BITS as usize,
    "Readers has a bit per recogniser in a Mask"
);

impl Readers {
    pub(crate) fn new() -> Readers {
        Readers {
            generation: 1,
            by_key: vec![(0, 0, 0); 512],
            by_end: vec![(0, 0); 256],
        }
    }

    /// The recognisers that read a line of class `line`.
    fn of(&mut self, line: LineKey, interests: &[&'static Interest]) -> Mask {
        let generation = self.generation;
        let (any_end, some_ends) = match self.by_key.get_mut(usize::from(line.key())) {
            Some((known, any_end, some_ends)) if *known == generation => (*any_end, *some_ends),
            Some(entry) => {
                let (mut any_end, mut some_ends) = (0, 0);
                for (at, interest) in interests.iter().enumerate() {
                    let (any, some) = interest.by_key(line.key());
                    any_end |= Mask::from(any) << at;
                    some_ends |= Mask::from(some) << at;
                }
                *entry = (generation, any_end, some_ends);
                (any_end, some_ends)
            }
            None => (Mask::MAX, 0),
        };
        if some_ends == 0 {
            return any_end;
        }
        let ends = match self.by_end.get_mut(usize::from(line.last())) {
            Some((known, ends)) if *known == generation => *ends,
            Some(entry) => {
                let mut ends = 0;
                for (at, interest) in interests.iter().enumerate() {
                    ends |= Mask::from(interest.by_end(line.last())) << at;
                }
                *entry = (generation, ends);
                ends
            }
            None => Mask::MAX,
        };
        any_end | (some_ends & ends)
    }

    /// An interest changed: what was worked out is stale.
    fn forget(&mut self) {
        match self.generation.checked_add(1) {
            Some(next) => self.generation = next,
            None => *self = Readers::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{Format, Runner, StreamParser};

    /// The cached readers of each class are those whose interest says so,
    /// before and after interests change, also across the generation's
    /// wrap.
    #[test]
    fn readers_are_the_interests_that_want_the_line() {
        use crate::formats::{Interest, LineKey};

        static LINES: Interest = Interest::NONE.first(b"ab").indented(b"-");
        static ENDED: Interest = Interest::NONE.first_ending(b"t=", b"n ").braced();
        let lines: Vec<String> = [
            "", "a", "b", "x", "  -", "   x", "ten", "t=", "x}", "=  ", "é\u{a0}",
        ]
        .iter()
        .map(|line| (*line).to_owned())
        .collect();
        let mut readers = super::Readers::new();
        let mut interests: Vec<&'static Interest> = vec![&LINES, &ENDED, &Interest::ALL];
        for round in 0..4 {
            if round == 2 {
                readers.generation = u32::MAX;
            }
            for line in &lines {
                let key = LineKey::of(line);
                let expected = interests
                    .iter()
                    .enumerate()
                    .fold(0, |m, (at, i)| m | super::Mask::from(i.wants(key)) << at);
                assert_eq!(
                    readers.of(key, &interests),
                    expected,
                    "{line:?} in round {round}"
                );
            }
            interests.rotate_left(1);
            readers.forget();
        }
    }

    /// What trims differently: tabs, non-ASCII spaces, escapes; a `}` last.
    const ODD: &[&str] = &[
        "  \u{a0}Running tests/x.rs (y)\n",
        " \u{3000}",
        "\t",
        "\u{a0}",
        "\u{1b}[31m",
        "\r\n",
    ];

    /// A mixed log: runs of one runner's fragments, each with odd ones and
    /// random text among them.
    fn mixed_log() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        let run = proptest::sample::select(&Runner::ALL[..]).prop_flat_map(|runner| {
            let piece = prop_oneof![
                4 => crate::formats::testing::piece(crate::formats::testing::fragments(runner)),
                1 => proptest::sample::select(ODD).prop_map(str::to_owned),
            ];
            proptest::collection::vec(piece, 0..24)
        });
        proptest::collection::vec(run, 0..8).prop_map(|runs| runs.concat().concat())
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(512))]

        /// The dispatch by interest leaves out only lines a recogniser would
        /// have done nothing with: every format gives the report it gives
        /// when every line reaches every recogniser.
        #[test]
        fn dispatch_by_interest_gives_the_report_of_every_line(log in mixed_log()) {
            let formats = std::iter::once(Format::Auto).chain(Runner::ALL.map(Format::from));
            for format in formats {
                let mut dispatched = StreamParser::dispatched(format);
                let mut every = StreamParser::every_line(format);
                dispatched.feed(log.as_bytes());
                every.feed(log.as_bytes());
                proptest::prop_assert_eq!(dispatched.finish(), every.finish(), "{:?}", format);
            }
        }
    }
}
