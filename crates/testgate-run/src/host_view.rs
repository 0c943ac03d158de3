//! What the sandboxed command sees of the host's homes and toolchains: the
//! homes hidden, the toolchains in them shown read-only, the paths the
//! command's environment points at shown, and each toolchain's cache a
//! private, persistent directory of testgate's for the project.

use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::DirBuilderExt;
use std::path::{Component, Path, PathBuf};

use crate::Toolchain;
use crate::project_file::read_project_file;
use crate::toolchain::CachePlace;

/// Under each home, what tools of no one toolchain are installed in and
/// need to be read (pip's and pipx's user installs): shown read-only when
/// they exist, as each toolchain's [`Toolchain::homes`]. Nothing here
/// holds a credential by design.
pub(crate) const HOME_TOOLCHAINS: &[&str] = &[".local/bin", ".local/lib"];

/// Directories hidden whole (an empty tmpfs over each): every home but the
/// toolchains above.
const HIDDEN_DIRS: &[&str] = &["/root", "/home"];

/// Files of the host that root could read and a test never needs: shown
/// empty (`/dev/null` over each).
const HIDDEN_FILES: &[&str] = &[
    "/etc/shadow",
    "/etc/shadow-",
    "/etc/gshadow",
    "/etc/gshadow-",
    "/etc/sudoers",
    "/etc/ssh/ssh_host_rsa_key",
    "/etc/ssh/ssh_host_ecdsa_key",
    "/etc/ssh/ssh_host_ed25519_key",
    "/etc/ssh/ssh_host_dsa_key",
];

/// Variables holding a `:`-separated list of directories (read-only),
/// besides each toolchain's [`Toolchain::search_paths`].
const TOOLCHAIN_LISTS: &[&str] = &["PATH"];

/// Where, inside, a private build output ([`Toolchain::build_outputs`]) is bound: the
/// attempt's own `/tmp` (under Landlock, the folder's real place).
pub(crate) const BUILD_OUTPUT_PLACE: &str = "/tmp/testgate-build";

/// Cache variables and where, under the command's home, testgate's private
/// cache for them is: XDG's, and those of each of `toolchains`' caches
/// ([`crate::HomeCache::variables`]); a value outside the writable paths is
/// replaced.
pub(crate) fn cache_variables(toolchains: &[Toolchain]) -> Vec<(&'static str, String)> {
    let mut out = vec![("XDG_CACHE_HOME", ".cache".to_owned())];
    for cache in toolchains.iter().flat_map(|t| t.caches) {
        out.extend(cache.variables.iter().map(|name| (*name, cache.inside())));
    }
    out
}

/// Whether [`view`] reads the variable `name` to decide what it mounts,
/// given the command's `toolchains`: a home, a toolchain or a list of them
/// (read-only), a build output or a cache (writable).
/// [`crate::env::caller_may_set`] refuses every one, so a variable added to
/// a list above or to a toolchain is refused to an untrusted caller too.
pub(crate) fn mounts_by(name: &str, toolchains: &[Toolchain]) -> bool {
    name == "HOME"
        || TOOLCHAIN_LISTS.contains(&name)
        || toolchains
            .iter()
            .any(|t| t.directories.contains(&name) || t.search_paths.contains(&name))
        || cache_variables(toolchains)
            .iter()
            .any(|(cache, _)| cache.eq_ignore_ascii_case(name))
}

/// The sandbox's view of the host beyond `/`, the project and `/proc`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct View {
    /// Covered by an empty tmpfs: the homes.
    pub(crate) hidden_dirs: Vec<PathBuf>,
    /// Covered by `/dev/null`.
    pub(crate) hidden_files: Vec<PathBuf>,
    /// (host path, path inside) bound read-only over the hidden parts.
    pub(crate) read_only: Vec<(PathBuf, PathBuf)>,
    /// (host path, path inside) bound writable: the private caches and the
    /// build outputs the environment names.
    pub(crate) writable: Vec<(PathBuf, PathBuf)>,
    /// Variables set for the command (its cache variables pointed at the
    /// private caches).
    pub(crate) env: Vec<(OsString, OsString)>,
    /// Where, inside, the sandbox's own git configuration is written
    /// ([`crate::gitconfig`]): the command's `~/.gitconfig`, when its home
    /// is one of the hidden ones (a tmpfs of the run's own) and nothing is
    /// bound there.
    pub(crate) git_config: Option<PathBuf>,
    /// What testgate decided on the user's behalf, one line each.
    pub(crate) notes: Vec<String>,
    /// The run's hold on its project's private caches against eviction
    /// ([`crate::evict`]): kept until the run ends.
    pub(crate) cache_claim: Option<std::sync::Arc<crate::evict::InUse>>,
}

/// The inputs of [`view`], apart so that tests can give their own.
pub(crate) struct Host<'a> {
    /// The homes of whoever runs testgate ([`crate::home_directories`]).
    pub(crate) homes: &'a [PathBuf],
    /// The command's environment, resolved.
    pub(crate) env: &'a [(OsString, OsString)],
    /// The program as given (a path, or a name looked up in `PATH`).
    pub(crate) program: &'a OsStr,
    /// The toolchains the command may use ([`crate::RunSpec::toolchains`]).
    pub(crate) toolchains: &'a [Toolchain],
    /// The private caches (by [`HostCache::private`]) the command uses, as
    /// its caller knows them ([`crate::RunSpec::caches`]); `None`: all.
    pub(crate) caches: Option<&'a [String]>,
    /// The caches tools keep at a fixed path outside the homes, as the
    /// caller knows them ([`crate::RunSpec::tool_caches`]).
    pub(crate) tool_caches: &'a [ToolCache],
    /// The run's directory (absolute, canonical).
    pub(crate) dir: &'a Path,
    /// The paths bound writable by the user's choice (absolute).
    pub(crate) writable: &'a [PathBuf],
    /// Where testgate keeps its private caches, `None` for none (the
    /// caches are then in the sandbox's memory, cold in each attempt).
    pub(crate) cache_root: Option<&'a Path>,
    /// The effective uid (only a host cache it owns is copied).
    pub(crate) uid: u32,
    /// How much of each host cache is copied into a new private one
    /// ([`crate::seed::SEED_CAP`]).
    pub(crate) seed_cap: u64,
    /// The cap on the root of every project's private caches
    /// ([`crate::evict::DEFAULT_CAP`]).
    pub(crate) cache_cap: u64,
}

/// The view for a run. Reads only metadata and a venv's `pyvenv.cfg`;
/// creates the project's private cache directories under
/// `host.cache_root`.
pub(crate) fn view(host: &Host<'_>) -> View {
    let mut view = mounts(host);
    view.git_config = git_config_place(host, &view);
    view
}

/// Where the sandbox's git configuration goes: the command's
/// `~/.gitconfig` when its home is hidden (a tmpfs of the attempt's own)
/// and no bind — the project, a `--writable` path, a toolchain shown
/// read-only, a private cache, a build output — covers the file, which
/// would then be a file of the host's.
fn git_config_place(host: &Host<'_>, view: &View) -> Option<PathBuf> {
    let home = value(host.env, "HOME").map(PathBuf::from)?;
    if !home.is_absolute() || home == Path::new("/") {
        return None;
    }
    if !view.hidden_dirs.iter().any(|dir| home.starts_with(dir)) {
        return None;
    }
    let file = home.join(".gitconfig");
    let bound = std::iter::once(host.dir)
        .chain(host.writable.iter().map(PathBuf::as_path))
        .chain(view.read_only.iter().map(|(_, at)| at.as_path()))
        .chain(view.writable.iter().map(|(_, at)| at.as_path()))
        .any(|at| file.starts_with(at));
    (!bound).then_some(file)
}

/// [`view`] but for the git configuration: the mounts and variables.
fn mounts(host: &Host<'_>) -> View {
    let mut view = View::default();
    // The homes: those of the runner and the command's `HOME`.
    let command_home = value(host.env, "HOME").map(PathBuf::from);
    let mut homes: Vec<PathBuf> = host.homes.to_vec();
    if let Some(home) = &command_home {
        homes.push(home.clone());
    }
    let hidden = hidden_dirs(host, &homes);
    // The sandbox's own tmpfs mounts hide too; a path under them is shown
    // like one under a home.
    let covered: Vec<PathBuf> = hidden
        .iter()
        .cloned()
        .chain(["/tmp", "/run", "/dev/shm"].map(PathBuf::from))
        .collect();
    view.hidden_dirs = outermost(hidden);
    view.hidden_files = HIDDEN_FILES
        .iter()
        .map(PathBuf::from)
        .filter(|file| file.symlink_metadata().is_ok_and(|m| m.is_file()))
        .collect();

    let is_writable = |path: &Path| {
        path.starts_with(host.dir) || host.writable.iter().any(|w| path.starts_with(w))
    };
    let needs_showing =
        |path: &Path| covered.iter().any(|c| path.starts_with(c)) && !is_writable(path);
    let mut read_only: Vec<(PathBuf, PathBuf)> = Vec::new();
    for path in wanted_read_only(host, &homes) {
        if !path.is_absolute() {
            continue;
        }
        let Ok(real) = path.canonicalize() else {
            continue;
        };
        for inside in [real.clone(), lexical(&path)] {
            if needs_showing(&inside) && !read_only.iter().any(|(_, at)| *at == inside) {
                read_only.push((real.clone(), inside));
            }
        }
    }
    view.read_only = outermost_pairs(read_only);

    // The private caches.
    let Some(home) = command_home.or_else(|| homes.first().cloned()) else {
        return view;
    };
    let seeds = host_caches(host, &home, &is_writable);
    let caches = private_caches(host, &home, &seeds, &mut view.notes);
    match caches {
        Ok((caches, claim)) => {
            view.writable.extend(caches);
            view.cache_claim = Some(std::sync::Arc::new(claim));
        }
        Err(error) => view.notes.push(format!(
            "no private cache for this project ({error}): toolchain caches are cold in each attempt"
        )),
    }
    point_at_private_folders(host, &home, &is_writable, &mut view);
    view
}

/// The folders the sandbox covers with an empty tmpfs: the fixed ones,
/// the `homes` (as given and canonical), and the root of the other
/// projects' private caches wherever it lies (`XDG_CACHE_HOME` outside
/// the homes; the project's own is bound back below); those that exist.
fn hidden_dirs(host: &Host<'_>, homes: &[PathBuf]) -> Vec<PathBuf> {
    let mut hidden: Vec<PathBuf> = HIDDEN_DIRS.iter().map(PathBuf::from).collect();
    for home in homes {
        if home.is_absolute() && home != Path::new("/") {
            hidden.push(home.clone());
            if let Ok(real) = home.canonicalize() {
                hidden.push(real);
            }
        }
    }
    if let Some(root) = host.cache_root
        && root.is_absolute()
        && !host.dir.starts_with(root)
    {
        hidden.push(root.to_path_buf());
        if let Ok(real) = root.canonicalize() {
            hidden.push(real);
        }
    }
    hidden.retain(|dir| dir.is_dir());
    hidden
}

/// What the command is shown read-only where it is hidden: the toolchains
/// under each of the `homes`, the program's folder (a venv's interpreter
/// called by path with its venv), the directories and search paths the
/// environment names, an activated venv's interpreter.
fn wanted_read_only(host: &Host<'_>, homes: &[PathBuf]) -> Vec<PathBuf> {
    let mut wanted: Vec<PathBuf> = Vec::new();
    for home in homes {
        let installed = host.toolchains.iter().flat_map(|t| t.homes);
        wanted.extend(
            HOME_TOOLCHAINS
                .iter()
                .chain(installed)
                .map(|rel| home.join(rel)),
        );
    }
    let program = Path::new(host.program);
    if program.is_absolute() {
        wanted.extend(program.parent().map(Path::to_path_buf));
        // A venv's interpreter called by path, not activated: Python finds
        // its venv by the `pyvenv.cfg` beside its `bin`, and without it
        // runs as the base interpreter, without the venv's packages.
        if let Some(venv) = venv_of_program(program) {
            wanted.extend(venv_interpreter(&venv));
            wanted.push(venv);
        }
    }
    for name in host.toolchains.iter().flat_map(|t| t.directories) {
        wanted.extend(value(host.env, name).map(PathBuf::from));
    }
    let searched = host.toolchains.iter().flat_map(|t| t.search_paths);
    for name in TOOLCHAIN_LISTS.iter().chain(searched) {
        if let Some(list) = value(host.env, name) {
            wanted.extend(
                list.as_bytes()
                    .split(|b| *b == b':')
                    .filter(|entry| !entry.is_empty())
                    .map(|entry| PathBuf::from(OsStr::from_bytes(entry))),
            );
        }
    }
    if let Some(venv) = value(host.env, "VIRTUAL_ENV") {
        wanted.extend(venv_interpreter(Path::new(venv)));
    }
    wanted
}

/// The toolchains' build-output and cache variables pointed at the
/// project's private folders under `home` (unless one already names a
/// writable place), each with a note.
fn point_at_private_folders(
    host: &Host<'_>,
    home: &Path,
    is_writable: &dyn Fn(&Path) -> bool,
    view: &mut View,
) {
    for (name, private) in host.toolchains.iter().flat_map(|t| t.build_outputs) {
        let place = Path::new(BUILD_OUTPUT_PLACE).join(private);
        if let Some(current) = value(host.env, name) {
            view.notes.push(format!(
                "{name}={} pointed at testgate's private build folder of the project: the host's is not written",
                Path::new(current).display()
            ));
        }
        view.env.push(((*name).into(), place.into_os_string()));
    }
    for (name, rel) in cache_variables(host.toolchains) {
        let Some(current) = value(host.env, name) else {
            continue;
        };
        let private = home.join(rel);
        if Path::new(current) == private || is_writable(Path::new(current)) {
            continue;
        }
        view.notes.push(format!(
            "{name}={} pointed at testgate's private cache {}",
            Path::new(current).display(),
            private.display()
        ));
        view.env.push(((*name).into(), private.into_os_string()));
    }
}

/// Python's bytecode cache prefix (`sys.pycache_prefix`): where Python,
/// and pytest's assertion rewriting, read and write every `.pyc` instead
/// of `__pycache__/` beside the source.
pub(crate) const BYTECODE_PREFIX: &str = "PYTHONPYCACHEPREFIX";

/// Points [`BYTECODE_PREFIX`] at `place`, a folder of the attempt's own
/// that nothing outlives the attempt in (its private `/tmp`): Python then
/// reads no bytecode from the tree (a forged `__pycache__/*.pyc`, stamped
/// with the real source's hash, would run instead of the source) and none
/// a check left. A value of the command's own is replaced, and said.
pub(crate) fn bytecode_in(
    env: &mut Vec<(OsString, OsString)>,
    place: &Path,
    notes: &mut Vec<String>,
) {
    if let Some(current) = value(env, BYTECODE_PREFIX)
        && Path::new(current) != place
    {
        notes.push(format!(
                "{BYTECODE_PREFIX}={} replaced by a folder of the attempt's own: Python reads no bytecode a run left",
                Path::new(current).display()
            ));
    }
    env.retain(|(name, _)| name != BYTECODE_PREFIX);
    env.push((BYTECODE_PREFIX.into(), place.as_os_str().to_owned()));
}

/// A cache a tool keeps at a fixed path outside the homes (a test runner's
/// under `/tmp`, named after the user): the sandbox gives the project a
/// private, persistent one bound at that same path, seeded from the host's
/// on the project's first run. The caller, who knows its tools, names
/// them ([`crate::RunSpec::tool_caches`]); this crate knows none.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolCache {
    /// What it is, for a note (`Go build cache`).
    pub what: String,
    /// Where the tool keeps it, on the host and inside alike (absolute).
    pub path: PathBuf,
    /// Its folder under the project's private caches: one plain name
    /// (no `/`), distinct from every [`crate::HomeCache::private`]'s.
    pub private: String,
}

/// A host cache a private one is seeded from.
#[derive(Debug, Clone, PartialEq, Eq)]
struct HostCache {
    /// What it is, for a note.
    what: String,
    /// Where the host's toolchain keeps it.
    host: PathBuf,
    /// Where its copy goes, under the project's private caches.
    private: String,
}

/// The host caches whose contents the sandbox sees, copied: Go's build
/// cache, pip's cache, npm's `_cacache` and the caller's tool caches, where the host's
/// toolchain keeps them (its cache variable, else `XDG_CACHE_HOME`, else the
/// home), unless the command's own variable points somewhere writable
/// (the toolchain then uses that directly).
fn host_caches(
    host: &Host<'_>,
    home: &Path,
    is_writable: &dyn Fn(&Path) -> bool,
) -> Vec<HostCache> {
    let absolute = |name: &str| {
        value(host.env, name)
            .map(PathBuf::from)
            .filter(|path| path.is_absolute())
    };
    let xdg = absolute("XDG_CACHE_HOME");
    let xdg_kept = xdg.as_deref().is_some_and(is_writable);
    let under_xdg = |rel: &str| xdg.clone().unwrap_or_else(|| home.join(".cache")).join(rel);
    let mut out = Vec::new();
    for cache in host.toolchains.iter().flat_map(|t| t.caches) {
        let named = cache
            .variables
            .iter()
            .find_map(|name| value(host.env, name));
        let seeded = match cache.place {
            CachePlace::XdgCache(name) => match named {
                Some(named) if is_writable(Path::new(named)) => continue,
                Some(named) if Path::new(named).is_absolute() => PathBuf::from(named),
                // `GOCACHE=off` and relative values: nothing to seed from.
                Some(_) => continue,
                None if xdg_kept => continue,
                None => under_xdg(name),
            },
            CachePlace::HomeFolder { folder, seeded } => {
                let root = cache
                    .variables
                    .iter()
                    .find_map(|name| absolute(name))
                    .unwrap_or_else(|| home.join(folder));
                if is_writable(&root) {
                    continue;
                }
                root.join(seeded)
            }
        };
        out.push(HostCache {
            what: cache.what.to_owned(),
            host: seeded,
            private: cache.private(),
        });
    }
    out.extend(host.tool_caches.iter().map(|tool| HostCache {
        what: tool.what.clone(),
        host: tool.path.clone(),
        private: tool.private.clone(),
    }));
    if let Some(used) = host.caches {
        out.retain(|cache| used.contains(&cache.private));
    }
    out
}

/// The private cache directories of the project, created under the cache
/// root (each seeded from the host's the first time, [`crate::seed`]), as
/// (host path, path inside) pairs: `~/.cache` (Go's build cache, pip's,
/// XDG's), `~/.npm`, and each of the caller's [`ToolCache`]s at its path;
/// and the run's claim on them. Other projects' caches are removed when
/// their project is gone, or when the root holds more than its cap.
fn private_caches(
    host: &Host<'_>,
    home: &Path,
    seeds: &[HostCache],
    notes: &mut Vec<String>,
) -> std::io::Result<(Vec<(PathBuf, PathBuf)>, crate::evict::InUse)> {
    let Some(root) = host.cache_root else {
        return Err(std::io::Error::other("no cache directory"));
    };
    // Detached: the removal goes on beside the run, never holding it up.
    drop(prune_beside(root));
    let project = root.join(cache_name(host.dir));
    let fresh = project.symlink_metadata().is_err();
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(&project)?;
    let claim = crate::evict::claim(&project)?;
    seed_private_caches(host, &project, seeds, notes);
    // After the seed, which is most of what a new project's cache adds.
    evict_least_recent(host, root, &project, fresh, notes);
    let mut out = Vec::new();
    for (sub, inside) in private_cache_places(host, home) {
        let path = project.join(sub);
        std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(&path)?;
        out.push((path.canonicalize()?, inside));
    }
    Ok((out, claim))
}

/// Seeds each of `seeds` into the `project`'s private caches from the
/// host's, with a note when the copy stopped at its cap or failed.
fn seed_private_caches(
    host: &Host<'_>,
    project: &Path,
    seeds: &[HostCache],
    notes: &mut Vec<String>,
) {
    for cache in seeds {
        // Beside the private caches, in no bind: the sandbox never sees
        // the copy before it is complete.
        let work = project.join(format!("seeding-{}", cache.private.replace('/', "-")));
        let target = project.join(&cache.private);
        let megabytes = crate::seed::mib(host.seed_cap);
        match crate::seed::seed(&cache.host, &target, &work, host.uid, host.seed_cap) {
            Ok(Some(seeded)) if seeded.skipped_files > 0 => notes.push(format!(
                "the project's private {} was seeded with the newest {} MiB of {}; {} MiB more were left out (the copy stops at {megabytes} MiB)",
                cache.what,
                crate::seed::mib(seeded.bytes),
                cache.host.display(),
                crate::seed::mib(seeded.skipped_bytes),
            )),
            Ok(_) => {}
            Err(error) => notes.push(format!(
                "the project's private {} could not be seeded from {} ({error}): it starts cold",
                cache.what,
                cache.host.display()
            )),
        }
    }
}

/// Removes the private caches of the projects checked least recently
/// while `root` holds more than its cap (`project`'s own kept), with a
/// note when any went.
fn evict_least_recent(
    host: &Host<'_>,
    root: &Path,
    project: &Path,
    fresh: bool,
    notes: &mut Vec<String>,
) {
    if let Some(evicted) = crate::evict::evict(
        root,
        project,
        host.cache_cap,
        std::time::SystemTime::now(),
        fresh,
    ) && evicted.projects > 0
    {
        notes.push(format!(
                "the private caches of {} project(s) checked least recently were removed ({} MiB), to keep {} under {} MiB ({} sets another cap)",
                evicted.projects,
                crate::seed::mib(evicted.bytes),
                root.display(),
                crate::seed::mib(host.cache_cap),
                crate::evict::CAP_VARIABLE,
            ));
    }
}

/// Where each private cache lies under the project's (its name there) and
/// where the sandbox sees it: `~/.cache`, each toolchain's home folder
/// once, the caller's tool caches, the toolchains' build outputs.
fn private_cache_places(host: &Host<'_>, home: &Path) -> Vec<(String, PathBuf)> {
    let mut pairs = vec![("home-cache".to_owned(), home.join(".cache"))];
    for cache in host.toolchains.iter().flat_map(|t| t.caches) {
        if let CachePlace::HomeFolder { folder, .. } = cache.place {
            let private = crate::toolchain::home_folder_private(folder);
            if !pairs.iter().any(|(known, _)| *known == private) {
                pairs.push((private, home.join(folder)));
            }
        }
    }
    pairs.extend(
        host.tool_caches
            .iter()
            .map(|tool| (tool.private.clone(), tool.path.clone())),
    );
    pairs.extend(
        host.toolchains
            .iter()
            .flat_map(|t| t.build_outputs)
            .map(|(_, private)| {
                (
                    (*private).to_owned(),
                    Path::new(BUILD_OUTPUT_PLACE).join(private),
                )
            }),
    );
    pairs
}

/// The directory name of a project's caches: its path, readable, `/` as `+`,
/// other bytes than `[A-Za-z0-9._-]` as `%xx`; long paths cut, with a
/// checksum of the whole.
pub(crate) fn cache_name(dir: &Path) -> String {
    let mut name = String::new();
    for &byte in dir.as_os_str().as_bytes() {
        match byte {
            b'/' => name.push('+'),
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'.' | b'_' | b'-' => {
                name.push(char::from(byte));
            }
            _ => name.push_str(&format!("%{byte:02x}")),
        }
    }
    if name.len() > 160 {
        let sum = path_sum(dir);
        name.truncate(140);
        name.push_str(&format!("~{sum:016x}"));
    }
    name
}

/// A checksum of a path's bytes (FNV-1a, 64 bits): the same for the same
/// path in every run, to name what belongs to one project.
pub(crate) fn path_sum(path: &Path) -> u64 {
    path.as_os_str()
        .as_bytes()
        .iter()
        .fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
            (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3)
        })
}

/// [`prune`] in a thread of its own, one at a time in the process, beside
/// the run: where many temporary clones were checked, removing their
/// caches is gigabytes of work that is no part of this project's run (it
/// was most of a check's wall time on a cache root of 140 gone projects,
/// docs/scale.md). `None` when a prune is already under way (or no thread
/// could start: the next run prunes). A process that exits first leaves a
/// gone project's caches part-removed, and the next prune goes on.
fn prune_beside(root: &Path) -> Option<std::thread::JoinHandle<()>> {
    use std::sync::atomic::{AtomicBool, Ordering};
    static PRUNING: AtomicBool = AtomicBool::new(false);
    if PRUNING.swap(true, Ordering::AcqRel) {
        return None;
    }
    let root = root.to_path_buf();
    let spawned = std::thread::Builder::new()
        .name("testgate-prune".into())
        .spawn(move || {
            prune(&root);
            PRUNING.store(false, Ordering::Release);
        });
    if spawned.is_err() {
        PRUNING.store(false, Ordering::Release);
    }
    spawned.ok()
}

/// Removes the caches of projects whose directory is gone (a checkout
/// deleted, a temporary project), so that the caches do not grow with
/// every directory ever checked. Names cut for length are kept.
fn prune(root: &Path) {
    let Ok(entries) = std::fs::read_dir(root) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(project) = project_of(name.as_bytes()) else {
            continue;
        };
        if matches!(project.symlink_metadata(), Err(e) if e.kind() == std::io::ErrorKind::NotFound)
        {
            // std's remove_dir_all does not follow symlinks a test left.
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// The project directory a cache name stands for: [`cache_name`]
/// reversed, `None` for a name cut for length or not of that form.
fn project_of(name: &[u8]) -> Option<PathBuf> {
    if name.first() != Some(&b'+') || name.contains(&b'~') {
        return None;
    }
    let mut out = Vec::with_capacity(name.len());
    let mut rest = name;
    while let Some((&byte, tail)) = rest.split_first() {
        match byte {
            b'+' => {
                out.push(b'/');
                rest = tail;
            }
            b'%' => {
                let hex = std::str::from_utf8(tail.get(..2)?).ok()?;
                out.push(u8::from_str_radix(hex, 16).ok()?);
                rest = tail.get(2..)?;
            }
            other => {
                out.push(other);
                rest = tail;
            }
        }
    }
    Some(PathBuf::from(OsStr::from_bytes(&out)))
}

/// The venv whose `bin` holds `program` (`VENV/bin/python`): the folder
/// above, when it holds a regular `pyvenv.cfg`.
fn venv_of_program(program: &Path) -> Option<PathBuf> {
    let bin = program.parent()?;
    if bin.file_name()? != "bin" {
        return None;
    }
    let venv = bin.parent()?;
    let cfg = std::fs::symlink_metadata(venv.join("pyvenv.cfg")).ok()?;
    cfg.is_file().then(|| venv.to_path_buf())
}

/// The installation a venv's interpreter comes from: `pyvenv.cfg`'s
/// `home = <prefix>/bin`, as its prefix.
fn venv_interpreter(venv: &Path) -> Option<PathBuf> {
    let cfg = read_project_file(&venv.join("pyvenv.cfg"), 64 * 1024).ok()?;
    let text = String::from_utf8_lossy(&cfg);
    let home = text.lines().find_map(|line| {
        let (key, value) = line.split_once('=')?;
        (key.trim() == "home").then(|| PathBuf::from(value.trim()))
    })?;
    let prefix = if home.ends_with("bin") {
        home.parent()?.to_path_buf()
    } else {
        home
    };
    Some(prefix)
}

/// The value of `name` in a resolved environment.
fn value<'a>(env: &'a [(OsString, OsString)], name: &str) -> Option<&'a OsStr> {
    env.iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_os_str())
}

/// `path` with `.` and `..` resolved lexically.
fn lexical(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other @ (Component::Prefix(_) | Component::RootDir | Component::Normal(_)) => {
                out.push(other)
            }
        }
    }
    out
}

/// `paths` without those under another one, sorted.
fn outermost(mut paths: Vec<PathBuf>) -> Vec<PathBuf> {
    paths.sort();
    paths.dedup();
    let mut out: Vec<PathBuf> = Vec::new();
    for path in paths {
        if !out.iter().any(|kept| path.starts_with(kept)) {
            out.push(path);
        }
    }
    out
}

/// Bind pairs without those whose place inside is under another's.
fn outermost_pairs(mut pairs: Vec<(PathBuf, PathBuf)>) -> Vec<(PathBuf, PathBuf)> {
    pairs.sort_by(|a, b| a.1.cmp(&b.1));
    pairs.dedup_by(|a, b| a.1 == b.1);
    let mut out: Vec<(PathBuf, PathBuf)> = Vec::new();
    for pair in pairs {
        if !out.iter().any(|kept| pair.1.starts_with(&kept.1)) {
            out.push(pair);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    fn env(vars: &[(&str, &Path)]) -> Vec<(OsString, OsString)> {
        vars.iter()
            .map(|(k, v)| ((*k).into(), v.as_os_str().to_owned()))
            .collect()
    }

    struct Fixture {
        _root: tempfile::TempDir,
        root: PathBuf,
    }

    impl Fixture {
        fn new() -> Fixture {
            let root = tempfile::tempdir().expect("tempdir");
            let path = root.path().canonicalize().expect("canonical");
            Fixture {
                _root: root,
                root: path,
            }
        }
        fn dir(&self, rel: &str) -> PathBuf {
            let path = self.root.join(rel);
            fs::create_dir_all(&path).expect("mkdir");
            path
        }
    }

    #[test]
    fn the_home_is_hidden_and_its_toolchains_shown_read_only() {
        let f = Fixture::new();
        let home = f.dir("home");
        f.dir("home/.cargo/bin");
        f.dir("home/.rustup");
        f.dir("home/.config/gh");
        fs::write(home.join(".git-credentials"), "x").expect("write");
        let project = f.dir("project");
        let cache = f.dir("cache");
        let env = env(&[("HOME", &home)]);
        let view = view(&Host {
            homes: &[],
            env: &env,
            program: OsStr::new("cargo"),
            toolchains: &crate::toolchain::FOR_TESTS,
            caches: Some(&[]),
            tool_caches: &[ToolCache {
                what: "runner cache".to_owned(),
                path: PathBuf::from("/tmp/runner_0"),
                private: "runner".to_owned(),
            }],
            dir: &project,
            writable: &[],
            cache_root: Some(&cache),
            uid: 0,
            seed_cap: crate::seed::SEED_CAP,
            cache_cap: crate::evict::DEFAULT_CAP,
        });
        assert!(view.hidden_dirs.contains(&home), "{view:?}");
        let inside: Vec<&PathBuf> = view.read_only.iter().map(|(_, at)| at).collect();
        assert_eq!(inside, [&home.join(".cargo/bin"), &home.join(".rustup")]);
        let cached: Vec<&PathBuf> = view.writable.iter().map(|(_, at)| at).collect();
        assert_eq!(
            cached,
            [
                &home.join(".cache"),
                &home.join(".npm"),
                &PathBuf::from("/tmp/runner_0"),
                &PathBuf::from("/tmp/testgate-build/cargo-target"),
            ]
        );
        assert!(
            cache
                .join(cache_name(&project))
                .join("cargo-target")
                .is_dir()
        );
        let name = cache_name(&project);
        assert!(cache.join(&name).join("home-cache").is_dir());
        assert!(!name.contains('/'), "{name}");
        assert!(view.notes.is_empty(), "{:?}", view.notes);
        assert_eq!(view.git_config, Some(home.join(".gitconfig")));
    }

    /// The root of every project's private caches, outside the homes (as
    /// with `XDG_CACHE_HOME=/var/cache`), is hidden; the project's own
    /// cache is bound back over it.
    #[test]
    fn other_projects_caches_are_hidden_wherever_their_root_lies() {
        let f = Fixture::new();
        let home = f.dir("home");
        let project = f.dir("project");
        let root = f.dir("var-cache/testgate/sandbox");
        fs::create_dir_all(root.join("+other+project/home-cache")).expect("mkdir");
        let env = env(&[("HOME", &home)]);
        fn host<'a>(dir: &'a Path, env: &'a [(OsString, OsString)], root: &'a Path) -> Host<'a> {
            Host {
                homes: &[],
                env,
                program: OsStr::new("cargo"),
                toolchains: &crate::toolchain::FOR_TESTS,
                caches: Some(&[]),
                tool_caches: &[],
                dir,
                writable: &[],
                cache_root: Some(root),
                uid: 0,
                seed_cap: crate::seed::SEED_CAP,
                cache_cap: crate::evict::DEFAULT_CAP,
            }
        }
        let view = view(&host(&project, &env, &root));
        assert!(view.hidden_dirs.contains(&root), "{view:?}");
        let own = root.join(cache_name(&project)).join("home-cache");
        assert!(
            view.writable
                .iter()
                .any(|(at_host, inside)| *at_host == own && *inside == home.join(".cache")),
            "{view:?}"
        );
        // A project inside the root (never so by default) stays visible.
        let inside = f.dir("var-cache/testgate/sandbox/project");
        let view = super::view(&host(&inside, &env, &root));
        assert!(!view.hidden_dirs.contains(&root), "{view:?}");
    }

    /// The sandbox's git configuration goes only into a home that is a
    /// tmpfs of the run's own: never into the project or a writable path
    /// (that would be a file on the host), nor under a bind.
    #[test]
    fn the_git_configuration_goes_only_into_a_private_home() {
        let f = Fixture::new();
        let project = f.dir("project");
        let writable = f.dir("writable");
        let home_of = |home: &Path| {
            let env = env(&[("HOME", home)]);
            view(&Host {
                homes: &[],
                env: &env,
                program: OsStr::new("git"),
                toolchains: &crate::toolchain::FOR_TESTS,
                caches: None,
                tool_caches: &[],
                dir: &project,
                writable: std::slice::from_ref(&writable),
                cache_root: None,
                uid: 0,
                seed_cap: crate::seed::SEED_CAP,
                cache_cap: crate::evict::DEFAULT_CAP,
            })
            .git_config
        };
        let home = f.dir("home");
        assert_eq!(home_of(&home), Some(home.join(".gitconfig")));
        assert_eq!(home_of(&f.dir("project/home")), None);
        assert_eq!(home_of(&f.dir("writable/home")), None);
        assert_eq!(home_of(Path::new("/")), None);
        assert_eq!(home_of(Path::new("relative/home")), None);
        // A home that is itself a toolchain directory shown read-only.
        let cargo = f.dir("other/.cargo/bin");
        let vars = env(&[("HOME", &cargo), ("PATH", &cargo)]);
        let shown = view(&Host {
            homes: &[f.root.join("other")],
            env: &vars,
            program: OsStr::new("git"),
            toolchains: &crate::toolchain::FOR_TESTS,
            caches: None,
            tool_caches: &[],
            dir: &project,
            writable: &[],
            cache_root: None,
            uid: 0,
            seed_cap: crate::seed::SEED_CAP,
            cache_cap: crate::evict::DEFAULT_CAP,
        });
        assert_eq!(shown.git_config, None, "{shown:?}");
        // A CARGO_TARGET_DIR at the home is not bound (the command builds
        // in a private folder): the home stays the run's own tmpfs.
        let target = f.dir("targets/home");
        let vars = env(&[("HOME", &target), ("CARGO_TARGET_DIR", &target)]);
        let output = view(&Host {
            homes: &[],
            env: &vars,
            program: OsStr::new("cargo"),
            toolchains: &crate::toolchain::FOR_TESTS,
            caches: Some(&[]),
            tool_caches: &[],
            dir: &project,
            writable: &[],
            cache_root: None,
            uid: 0,
            seed_cap: crate::seed::SEED_CAP,
            cache_cap: crate::evict::DEFAULT_CAP,
        });
        assert_eq!(output.writable, [], "{output:?}");
        assert_eq!(
            output.git_config,
            Some(target.join(".gitconfig")),
            "{output:?}"
        );
    }

    #[test]
    fn what_the_environment_names_is_shown() {
        let f = Fixture::new();
        let home = f.dir("home");
        let venv = f.dir("home/venvs/x");
        f.dir("home/venvs/x/bin");
        let python = f.dir("home/.pyenv/versions/3.12/bin");
        fs::write(
            venv.join("pyvenv.cfg"),
            format!(
                "home = {}\ninclude-system-site-packages = false\n",
                python.display()
            ),
        )
        .expect("pyvenv.cfg");
        let outside_target = f.root.join("home/targets/p");
        let project = f.dir("project");
        let on_path = f.dir("project/node_modules/.bin");
        let mut path = venv.join("bin").into_os_string();
        path.push(":/usr/bin::");
        path.push(&on_path);
        let vars = vec![
            ("HOME".into(), home.clone().into_os_string()),
            ("VIRTUAL_ENV".into(), venv.clone().into_os_string()),
            ("PATH".into(), path),
            (
                "CARGO_TARGET_DIR".into(),
                outside_target.clone().into_os_string(),
            ),
            ("GOCACHE".into(), home.join("gocache").into_os_string()),
        ];
        let view = view(&Host {
            homes: &[],
            env: &vars,
            program: OsStr::new("pytest"),
            toolchains: &crate::toolchain::FOR_TESTS,
            caches: Some(&[]),
            tool_caches: &[],
            dir: &project,
            writable: &[],
            cache_root: None,
            uid: 1000,
            seed_cap: crate::seed::SEED_CAP,
            cache_cap: crate::evict::DEFAULT_CAP,
        });
        let inside: Vec<&PathBuf> = view.read_only.iter().map(|(_, at)| at).collect();
        // The venv (with its bin/) and the interpreter's prefix, inside
        // .pyenv which is shown whole; /usr/bin is visible anyway and
        // node_modules/.bin is in the project.
        assert_eq!(inside, [&home.join(".pyenv"), &venv], "{view:?}");
        // The user's CARGO_TARGET_DIR is neither created nor bound: the
        // command builds in the project's private folder.
        assert!(!outside_target.exists(), "CARGO_TARGET_DIR was created");
        assert_eq!(view.writable, []);
        assert_eq!(
            view.env,
            [
                (
                    OsString::from("CARGO_TARGET_DIR"),
                    OsString::from("/tmp/testgate-build/cargo-target")
                ),
                (
                    OsString::from("GOCACHE"),
                    home.join(".cache/go-build").into_os_string()
                )
            ]
        );
        assert_eq!(view.notes.len(), 3, "{:?}", view.notes);
        assert!(
            view.notes[0].starts_with("no private cache")
                && view.notes[1].starts_with("CARGO_TARGET_DIR=")
                && view.notes[1].contains("the host's is not written"),
            "{:?}",
            view.notes
        );
    }

    #[test]
    fn the_private_caches_are_seeded_from_the_hosts_once() {
        let f = Fixture::new();
        let go_build = ["home-cache/go-build".to_owned()];
        let runner = [ToolCache {
            what: "runner cache".to_owned(),
            path: PathBuf::from("/tmp/runner_7"),
            private: "runner".to_owned(),
        }];
        let home = f.dir("home");
        fs::create_dir_all(home.join(".cache/go-build/ab")).expect("mkdir");
        fs::write(home.join(".cache/go-build/ab/entry-d"), "object").expect("write");
        let npm = f.dir("elsewhere/npm");
        fs::create_dir_all(npm.join("_cacache/index-v5")).expect("mkdir");
        fs::write(npm.join("_cacache/index-v5/x"), "index").expect("write");
        let project = f.dir("project");
        let cache = f.dir("cache");
        let host_view = |vars: &[(OsString, OsString)]| {
            view(&Host {
                homes: &[],
                env: vars,
                program: OsStr::new("make"),
                toolchains: &crate::toolchain::FOR_TESTS,
                caches: None,
                tool_caches: &[],
                dir: &project,
                writable: &[],
                cache_root: Some(&cache),
                // SAFETY: geteuid cannot fail.
                uid: unsafe { libc::geteuid() },
                seed_cap: crate::seed::SEED_CAP,
                cache_cap: crate::evict::DEFAULT_CAP,
            })
        };
        let vars = env(&[("HOME", &home), ("npm_config_cache", &npm)]);
        let seeds = host_caches(
            &Host {
                homes: &[],
                env: &vars,
                program: OsStr::new("make"),
                toolchains: &crate::toolchain::FOR_TESTS,
                caches: None,
                tool_caches: &runner,
                dir: &project,
                writable: &[],
                cache_root: Some(&cache),
                uid: 7,
                seed_cap: crate::seed::SEED_CAP,
                cache_cap: crate::evict::DEFAULT_CAP,
            },
            &home,
            &|path: &Path| path.starts_with(&project),
        );
        let names: Vec<&str> = seeds.iter().map(|s| s.private.as_str()).collect();
        // In the order of the toolchains given (Rust, Python, Go, Node).
        assert_eq!(
            names,
            [
                "home-cache/pip",
                "home-cache/go-build",
                "npm/_cacache",
                "runner"
            ]
        );
        let hosts: Vec<&Path> = seeds.iter().map(|s| s.host.as_path()).collect();
        assert_eq!(
            hosts,
            [
                &*home.join(".cache/pip"),
                &*home.join(".cache/go-build"),
                &*npm.join("_cacache"),
                Path::new("/tmp/runner_7"),
            ]
        );
        let first = host_view(&vars);
        let private = cache.join(cache_name(&project));
        assert_eq!(
            fs::read_to_string(private.join("home-cache/go-build/ab/entry-d")).unwrap(),
            "object"
        );
        assert_eq!(
            fs::read_to_string(private.join("npm/_cacache/index-v5/x")).unwrap(),
            "index"
        );
        assert!(
            first.notes.iter().all(|n| !n.contains("seeded")),
            "{:?}",
            first.notes
        );
        // Once: what the sandbox wrote since stays, the host's newer
        // entries are not copied over it.
        fs::write(
            private.join("home-cache/go-build/ab/entry-d"),
            "built inside",
        )
        .unwrap();
        fs::write(home.join(".cache/go-build/ab/new-d"), "newer").unwrap();
        host_view(&vars);
        assert_eq!(
            fs::read_to_string(private.join("home-cache/go-build/ab/entry-d")).unwrap(),
            "built inside"
        );
        assert!(!private.join("home-cache/go-build/ab/new-d").exists());
        // A cache variable pointing into the project is used as it is:
        // nothing to seed.
        let in_project = env(&[("HOME", &home), ("GOCACHE", &project.join("gocache"))]);
        let seeds = host_caches(
            &Host {
                homes: &[],
                env: &in_project,
                program: OsStr::new("go"),
                toolchains: &crate::toolchain::FOR_TESTS,
                caches: Some(&go_build),
                tool_caches: &[],
                dir: &project,
                writable: &[],
                cache_root: Some(&cache),
                uid: 7,
                seed_cap: crate::seed::SEED_CAP,
                cache_cap: crate::evict::DEFAULT_CAP,
            },
            &home,
            &|path: &Path| path.starts_with(&project),
        );
        assert!(
            seeds.iter().all(|s| s.what != "Go build cache"),
            "{seeds:?}"
        );
    }

    #[test]
    fn a_host_cache_over_the_cap_is_copied_in_part_and_said() {
        let f = Fixture::new();
        let go_build = ["home-cache/go-build".to_owned()];
        let home = f.dir("home");
        let gocache = f.dir("home/.cache/go-build/ab");
        fs::write(gocache.join("one-d"), "123456").expect("write");
        fs::write(gocache.join("two-d"), "654321").expect("write");
        let project = f.dir("project");
        let cache = f.dir("cache");
        let vars = env(&[("HOME", &home)]);
        let view = view(&Host {
            homes: &[],
            env: &vars,
            program: OsStr::new("go"),
            toolchains: &crate::toolchain::FOR_TESTS,
            caches: Some(&go_build),
            tool_caches: &[],
            dir: &project,
            writable: &[],
            cache_root: Some(&cache),
            // SAFETY: geteuid cannot fail.
            uid: unsafe { libc::geteuid() },
            seed_cap: 10,
            cache_cap: crate::evict::DEFAULT_CAP,
        });
        let copied = cache
            .join(cache_name(&project))
            .join("home-cache/go-build/ab");
        assert_eq!(entries_in(&copied), 1);
        assert_eq!(view.notes.len(), 1, "{:?}", view.notes);
        let note = &view.notes[0];
        assert!(
            note.starts_with(
                "the project's private Go build cache was seeded with the newest 1 MiB of "
            ) && note.contains("1 MiB more were left out (the copy stops at 1 MiB)"),
            "{note}"
        );
    }

    fn entries_in(dir: &Path) -> usize {
        fs::read_dir(dir).map(Iterator::count).unwrap_or(0)
    }

    #[test]
    fn the_bytecode_prefix_is_the_attempts_and_a_users_own_is_replaced_and_said() {
        let place = Path::new("/tmp/testgate-bytecode");
        let mut env = vec![("PATH".into(), "/usr/bin".into())];
        let mut notes = Vec::new();
        bytecode_in(&mut env, place, &mut notes);
        assert_eq!(
            value(&env, BYTECODE_PREFIX),
            Some(place.as_os_str()),
            "{env:?}"
        );
        assert!(notes.is_empty(), "{notes:?}");
        let mut env = vec![(BYTECODE_PREFIX.into(), "/shared/pyc".into())];
        bytecode_in(&mut env, place, &mut notes);
        assert_eq!(
            env,
            [(BYTECODE_PREFIX.into(), place.as_os_str().to_owned())]
        );
        assert!(
            notes.len() == 1 && notes[0].starts_with("PYTHONPYCACHEPREFIX=/shared/pyc replaced"),
            "{notes:?}"
        );
    }

    #[test]
    fn cache_names_are_readable_distinct_and_short() {
        assert_eq!(cache_name(Path::new("/root/my proj")), "+root+my%20proj");
        assert_ne!(
            cache_name(Path::new("/a%b")),
            cache_name(Path::new("/a/25b"))
        );
        assert_ne!(cache_name(Path::new("/a/b")), cache_name(Path::new("/a_b")));
        let long = PathBuf::from(format!("/{}", "x/".repeat(200)));
        let other = PathBuf::from(format!("/{}y", "x/".repeat(200)));
        assert!(cache_name(&long).len() <= 160);
        assert_ne!(cache_name(&long), cache_name(&other));
    }

    #[test]
    fn cache_names_read_back_and_caches_of_gone_projects_are_pruned() {
        for dir in ["/root/my proj", "/a%b/c+d", "/tmp/\u{e9}t\u{e9}"] {
            assert_eq!(
                project_of(cache_name(Path::new(dir)).as_bytes()),
                Some(PathBuf::from(dir))
            );
        }
        assert_eq!(project_of(b"+x%zz"), None);
        assert_eq!(project_of(b"+x%4"), None);
        assert_eq!(project_of(b"notes"), None);
        let f = Fixture::new();
        let root = f.dir("caches");
        let alive = f.dir("alive");
        let gone = f.root.join("gone");
        for dir in [&alive, &gone] {
            fs::create_dir_all(root.join(cache_name(dir)).join("npm")).expect("mkdir");
        }
        fs::create_dir_all(root.join("kept-by-name")).expect("mkdir");
        // Another test's run may be pruning its own root in this process:
        // then this one prunes here, as that thread would.
        match prune_beside(&root) {
            Some(pruning) => pruning.join().expect("pruned"),
            None => prune(&root),
        }
        assert!(root.join(cache_name(&alive)).is_dir());
        assert!(!root.join(cache_name(&gone)).exists());
        assert!(root.join("kept-by-name").is_dir());
    }
}
