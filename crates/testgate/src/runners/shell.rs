//! A shell's `-c` script read as a list of simple commands (`cd x && npx
//! jest`, `go test ./... ; echo done`), so that the one runner it starts can
//! be asked for its report as a bare command would be, and the script
//! written back with that command's words changed and nothing else.

/// The shells whose `-c` script is read.
pub(crate) const SHELLS: [&str; 6] = ["sh", "bash", "dash", "zsh", "ash", "ksh"];

/// A `-c` script of simple commands joined by `&&`, `;` or newlines: each
/// command's words, with the separator that follows it. Nothing else is
/// read: a pipe, a redirection, an expansion, a glob, a subshell or `||`
/// makes the script one that is left as it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ShellScript {
    /// Where the script is among the shell's arguments.
    at: usize,
    /// Each command's words (unquoted) and the separator after it.
    commands: Vec<(Vec<String>, &'static str)>,
}

impl ShellScript {
    /// The script of `program args` when `program` (a file name) is a
    /// shell and `args` are `-c SCRIPT …` (or a cluster of single-letter
    /// options ending with `c`: `-ec`, `-lc`), and the script is a plain
    /// list of simple commands; `None` otherwise.
    pub(crate) fn of(program: &str, args: &[String]) -> Option<ShellScript> {
        if !SHELLS.contains(&program) {
            return None;
        }
        let mut at = 0;
        loop {
            let arg = args.get(at)?;
            if !arg.starts_with('-') || arg.starts_with("--") || arg.len() < 2 {
                return None;
            }
            at += 1;
            if arg[1..].bytes().all(|b| b.is_ascii_alphabetic()) && arg.ends_with('c') {
                break;
            }
            if !arg[1..].bytes().all(|b| b.is_ascii_alphabetic()) || arg.contains('o') {
                // `-o OPTION` takes a value; anything else is not read.
                return None;
            }
        }
        let script = args.get(at)?;
        Some(ShellScript {
            at,
            commands: commands(script)?,
        })
    }

    /// The one runner the script's commands start, as
    /// [`super::recognise`] knows a bare command's; `None` where none is,
    /// or where two commands start different runners.
    pub(crate) fn runner(&self) -> Option<testgate_parse::Runner> {
        let mut found = None;
        for (_, assignments, command) in self.commands() {
            let Some((program, args)) = command[assignments..].split_first() else {
                continue;
            };
            let base = program.rsplit('/').next().unwrap_or(program);
            if let Some((runner, _)) = super::recognise(base, args) {
                if found.is_some_and(|seen| seen != runner) {
                    return None;
                }
                found = Some(runner);
            }
        }
        found
    }

    /// Each command's words, program first, after its `VAR=value`
    /// assignments: (index, assignments skipped, words).
    pub(crate) fn commands(&self) -> impl Iterator<Item = (usize, usize, &[String])> {
        self.commands.iter().enumerate().map(|(i, (words, _))| {
            let assignments = words.iter().take_while(|w| is_assignment(w)).count();
            (i, assignments, &words[..])
        })
    }

    /// The shell's arguments `args` with command `index`'s words replaced
    /// by `words`, every word quoted where the shell would read it as more
    /// than one.
    pub(crate) fn rewritten(&self, args: &[String], index: usize, words: &[String]) -> Vec<String> {
        let mut script = String::new();
        for (i, (own, separator)) in self.commands.iter().enumerate() {
            let words = if i == index { words } else { own };
            let quoted: Vec<String> = words.iter().map(|w| quote(w)).collect();
            script.push_str(&quoted.join(" "));
            script.push_str(separator);
        }
        let mut out = args.to_vec();
        if let Some(slot) = out.get_mut(self.at) {
            *slot = script;
        }
        out
    }
}

/// `NAME=value` before a command's program.
fn is_assignment(word: &str) -> bool {
    word.split_once('=').is_some_and(|(name, _)| {
        !name.is_empty()
            && !name.starts_with(|c: char| c.is_ascii_digit())
            && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
    })
}

/// The bytes a word may hold unquoted: none the shell reads specially.
fn plain(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"_./:=+,@%^-".contains(&b)
}

/// `word` as the shell reads it back as one word.
fn quote(word: &str) -> String {
    if !word.is_empty() && word.bytes().all(plain) {
        word.to_owned()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// The commands of `script`, or `None` where it holds anything but plain
/// words (single-quoted, or double-quoted without `$`, `` ` `` or `\`),
/// spaces, `&&`, `;` and newlines.
fn commands(script: &str) -> Option<Vec<(Vec<String>, &'static str)>> {
    let bytes = script.as_bytes();
    let mut commands: Vec<(Vec<String>, &'static str)> = Vec::new();
    let mut words: Vec<String> = Vec::new();
    let mut word: Option<Vec<u8>> = None;
    let mut i = 0;
    let end_word = |word: &mut Option<Vec<u8>>, words: &mut Vec<String>| -> Option<()> {
        if let Some(w) = word.take() {
            words.push(String::from_utf8(w).ok()?);
        }
        Some(())
    };
    while i < bytes.len() {
        let b = bytes[i];
        match b {
            b' ' | b'\t' => {
                end_word(&mut word, &mut words)?;
                i += 1;
            }
            b'\n' | b';' => {
                end_word(&mut word, &mut words)?;
                if words.is_empty() && b == b';' {
                    return None;
                }
                if !words.is_empty() {
                    commands.push((
                        std::mem::take(&mut words),
                        if b == b';' { "; " } else { "\n" },
                    ));
                }
                i += 1;
            }
            b'&' if bytes.get(i + 1) == Some(&b'&') => {
                end_word(&mut word, &mut words)?;
                if words.is_empty() {
                    return None;
                }
                commands.push((std::mem::take(&mut words), " && "));
                i += 2;
            }
            b'\'' => {
                let close = bytes[i + 1..].iter().position(|&c| c == b'\'')?;
                word.get_or_insert_with(Vec::new)
                    .extend_from_slice(&bytes[i + 1..i + 1 + close]);
                i += close + 2;
            }
            b'"' => {
                let close = bytes[i + 1..].iter().position(|&c| c == b'"')?;
                let inside = &bytes[i + 1..i + 1 + close];
                if inside.iter().any(|c| b"$`\\!".contains(c)) {
                    return None;
                }
                word.get_or_insert_with(Vec::new).extend_from_slice(inside);
                i += close + 2;
            }
            _ if plain(b) && !(b == b'=' && word.is_none() && words.is_empty()) => {
                word.get_or_insert_with(Vec::new).push(b);
                i += 1;
            }
            _ => return None,
        }
    }
    end_word(&mut word, &mut words)?;
    match commands.last_mut() {
        _ if !words.is_empty() => commands.push((words, "")),
        // A trailing `;` or newline is kept; a trailing `&&` is no script.
        Some((_, " && ")) | None => return None,
        Some(_) => {}
    }
    Some(commands)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(words: &[&str]) -> Vec<String> {
        words.iter().map(|w| (*w).to_owned()).collect()
    }

    fn read(script: &str) -> Option<Vec<Vec<String>>> {
        ShellScript::of("bash", &words(&["-c", script]))
            .map(|s| s.commands.into_iter().map(|(w, _)| w).collect())
    }

    #[test]
    fn a_list_of_simple_commands_is_read() {
        assert_eq!(read("npx jest"), Some(vec![words(&["npx", "jest"])]));
        assert_eq!(
            read("cd 'my dir' && CI=1 go test -count=3 ./... ; echo \"done now\"\n"),
            Some(vec![
                words(&["cd", "my dir"]),
                words(&["CI=1", "go", "test", "-count=3", "./..."]),
                words(&["echo", "done now"]),
            ])
        );
        let script = ShellScript::of("sh", &words(&["-ec", "jest --ci && echo done"])).unwrap();
        assert_eq!(
            script.rewritten(
                &words(&["-ec", "x"]),
                0,
                &words(&["jest", "--ci", "--outputFile=/tmp/a b.json"])
            ),
            words(&["-ec", "jest --ci '--outputFile=/tmp/a b.json' && echo done"])
        );
    }

    #[test]
    fn the_one_runner_a_script_starts_is_known() {
        let runner = |script: &str| ShellScript::of("sh", &words(&["-c", script]))?.runner();
        assert_eq!(
            runner("gradle test --offline; exit 0"),
            Some(testgate_parse::Runner::Gradle)
        );
        assert_eq!(
            runner("cd app && CI=1 go test ./... ; go test ./more"),
            Some(testgate_parse::Runner::Go)
        );
        // Where it must not fire: no runner, or two different ones.
        assert_eq!(runner("make test"), None);
        assert_eq!(runner("cargo test && go test ./..."), None);
    }

    /// Where it must not fire: anything whose meaning is more than its
    /// words (pipes, redirections, expansions, globs, `||`, subshells), a
    /// shell without `-c`, a script file.
    #[test]
    fn anything_else_is_left_as_it_is() {
        for script in [
            "jest | tee log",
            "jest > log",
            "jest $ARGS",
            "jest \"$ARGS\"",
            "jest `x`",
            "jest *.test.js",
            "jest || true",
            "(jest)",
            "jest &",
            "jest &&",
            "&& jest",
            "jest 'unclosed",
            "=x jest",
            "jest # comment",
        ] {
            assert_eq!(read(script), None, "{script}");
        }
        assert!(ShellScript::of("bash", &words(&["run.sh"])).is_none());
        assert!(ShellScript::of("make", &words(&["-c", "jest"])).is_none());
        assert!(ShellScript::of("bash", &words(&["-o", "pipefail", "-c", "jest"])).is_none());
    }
}
