//! What detection reads a project through ([`ProjectView`]: no link
//! followed, every read and listing capped, the host's facts beside) and
//! what it finds ([`Detected`]): the profiles of `crate::runners` answer
//! through these, and [`crate::detect`] asks every profile.

use std::ffi::{OsStr, OsString};
use std::fmt;
use std::path::{Path, PathBuf};

use testgate_parse::Runner;
use testgate_run::{Dir, EntryKind, ProjectDir, ProjectFileError};

/// The most bytes of a configuration file detection reads (`package.json`,
/// `Cargo.toml`, `pyproject.toml`, …); a larger one is not read.
const CONFIG_LIMIT: u64 = 1 << 20;

/// The most entries of a folder detection lists: a folder the tests filled
/// with millions costs no more.
const LISTING_LIMIT: usize = 10_000;

/// The test command detection chose for a project, and what showed it.
///
/// ```
/// let dir = tempfile::tempdir().unwrap();
/// std::fs::write(dir.path().join("go.mod"), "module calc\n").unwrap();
/// let detected = testgate::detect_command(dir.path()).unwrap();
/// assert_eq!(detected.runner, testgate::parse::Runner::Go);
/// assert_eq!(detected.to_string(), "`go test ./...` (found go.mod)");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Detected {
    /// The runner the command starts.
    pub runner: Runner,
    /// The command, program first.
    pub command: Vec<OsString>,
    /// What in the project showed it, in a few words each: `Cargo.toml`,
    /// `.config/nextest.toml`, `package.json's test script \`jest\``.
    pub found: Vec<String>,
    /// Whether only the layout showed it (a `tests/` folder of
    /// `test_*.py`), which yields to any file that names a runner.
    pub(crate) layout_only: bool,
    /// Shell commands to run once before the attempts, as `--prepare`
    /// steps, after the user's own: what the runner needs first (a CMake
    /// project's configure and build). Empty for most runners.
    pub prepare: Vec<String>,
}

impl Detected {
    /// A command `command` for `runner`, shown by the files `found`.
    pub(crate) fn new<I, S>(runner: Runner, command: I, found: Vec<String>) -> Detected
    where
        I: IntoIterator<Item = S>,
        S: Into<OsString>,
    {
        Detected {
            runner,
            command: command.into_iter().map(Into::into).collect(),
            found,
            layout_only: false,
            prepare: Vec::new(),
        }
    }

    /// The same, with `steps` to run first as `--prepare` steps.
    pub(crate) fn preparing(mut self, steps: Vec<String>) -> Detected {
        self.prepare = steps;
        self
    }

    /// The same, shown only by the project's layout: any candidate a file
    /// names wins over it.
    pub(crate) fn layout_only(mut self) -> Detected {
        self.layout_only = true;
        self
    }

    /// The command as one line, a word with a blank in quotes.
    pub fn shown_command(&self) -> String {
        let words: Vec<String> = self
            .command
            .iter()
            .map(|word| {
                let word = word.to_string_lossy();
                if word.is_empty() || word.contains(char::is_whitespace) {
                    format!("'{word}'")
                } else {
                    word.into_owned()
                }
            })
            .collect();
        words.join(" ")
    }

    /// Why it was chosen, `found Cargo.toml, .config/nextest.toml`.
    pub fn why(&self) -> String {
        format!("found {}", self.found.join(", "))
    }
}

impl fmt::Display for Detected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}` ({})", self.shown_command(), self.why())
    }
}

/// `text` from the project (a script, a folder's name) as one line safe to
/// print: control characters, escapes and bidi controls shown as visible
/// escapes ([`printable`](crate::printable)), newlines and tabs too.
pub(crate) fn one_line(text: &[u8]) -> String {
    crate::parse::printable(text)
        .replace('\n', "\\u{a}")
        .replace('\t', "\\u{9}")
}

/// What detection asks of the host, never of the project: answered once,
/// given to the profiles as data (and made up in tests).
#[derive(Debug, Clone, Default)]
pub(crate) struct HostFacts {
    /// The active virtual environment (`VIRTUAL_ENV`), when it holds
    /// `bin/python`.
    pub(crate) virtual_env: Option<PathBuf>,
    /// Whether `cargo-nextest` is installed (on `PATH` or in cargo's bin).
    pub(crate) nextest: bool,
}

impl HostFacts {
    /// The host's answers, by looking at files: nothing is run.
    pub(crate) fn current() -> HostFacts {
        let virtual_env = std::env::var_os("VIRTUAL_ENV")
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
            .filter(|v| v.is_absolute() && v.join("bin/python").exists());
        let mut bins: Vec<PathBuf> = std::env::var_os("PATH")
            .map(|path| std::env::split_paths(&path).collect())
            .unwrap_or_default();
        if let Some(cargo_home) = std::env::var_os("CARGO_HOME") {
            bins.push(PathBuf::from(cargo_home).join("bin"));
        }
        bins.extend(
            crate::run::home_directories()
                .into_iter()
                .map(|home| home.join(".cargo/bin")),
        );
        let nextest = bins
            .iter()
            .filter(|bin| bin.is_absolute())
            .any(|bin| bin.join("cargo-nextest").is_file());
        HostFacts {
            virtual_env,
            nextest,
        }
    }
}

/// The project's root as detection sees it: entries looked at without
/// following a link, files read capped through [`ProjectDir`], folders
/// listed capped, and the host's facts beside.
pub(crate) struct ProjectView<'h> {
    files: ProjectDir,
    host: &'h HostFacts,
}

impl<'h> ProjectView<'h> {
    /// Opens the folder `root` (the user's path: its own links followed).
    pub(crate) fn open(root: &Path, host: &'h HostFacts) -> Result<Self, ProjectFileError> {
        let files = ProjectDir::open(root)?;
        Ok(ProjectView { files, host })
    }

    /// The project folder.
    pub(crate) fn root(&self) -> &Path {
        self.files.root()
    }

    /// The host's answers.
    pub(crate) fn host(&self) -> &HostFacts {
        self.host
    }

    /// What `rel` (a plain relative path) is, as `fstatat` without
    /// following says, every folder on the way reached without following a
    /// link; `None` when it is missing or a folder on the way is a link.
    pub(crate) fn kind(&self, rel: &Path) -> Option<EntryKind> {
        let name = rel.file_name()?;
        let folder = self.folder(rel.parent()?)?;
        folder.stat(name).ok().map(|stat| stat.kind)
    }

    /// Whether `rel` is a regular file (a link, a FIFO, a folder is not).
    pub(crate) fn is_file(&self, rel: &str) -> bool {
        self.kind(Path::new(rel)) == Some(EntryKind::File)
    }

    /// The text of the regular file `rel`, read capped; `None` when it is
    /// missing, not a regular file, behind a link, or too large.
    pub(crate) fn text(&self, rel: &str) -> Option<String> {
        let bytes = self.files.read(Path::new(rel), CONFIG_LIMIT).ok()?;
        Some(String::from_utf8_lossy(&bytes).into_owned())
    }

    /// Whether the regular file `rel` has a line that is, trimmed, one of
    /// `headers` (a TOML table or INI section: `[tool.pytest.ini_options]`).
    pub(crate) fn has_section(&self, rel: &str, headers: &[&str]) -> bool {
        self.text(rel)
            .is_some_and(|text| text.lines().any(|line| headers.contains(&line.trim())))
    }

    /// The names at the root (at most [`LISTING_LIMIT`]), sorted.
    pub(crate) fn names(&self) -> Vec<OsString> {
        self.names_in("")
    }

    /// The names in the folder `rel` (reached without following a link; at
    /// most [`LISTING_LIMIT`]), sorted; none when it cannot be reached.
    pub(crate) fn names_in(&self, rel: &str) -> Vec<OsString> {
        self.folder(Path::new(rel))
            .and_then(|folder| folder.names_at_most(LISTING_LIMIT).ok())
            .unwrap_or_default()
    }

    /// The folder `rel`, one component at a time, never through a link.
    fn folder(&self, rel: &Path) -> Option<Dir> {
        let mut folder = Dir::open(self.root()).ok()?;
        for name in rel.iter() {
            if name == OsStr::new(".") {
                continue;
            }
            folder = folder.open_dir(name).ok()?;
        }
        Some(folder)
    }
}
