#!/usr/bin/env bash
# Reruns unittest over tests/projects/parse/unittest/* (and Django's
# `manage.py test` over its django project) and rewrites
# tests/fixtures/unittest/<case>.log (stdout+stderr as they came),
# <case>.expected (the failing tests as unittest's own result API records
# them: a result class, put on the path from outside the project by
# unittest/tg_unittest_record.py, writes each test's outcome as JSON) and
# <case>.outcomes (every test's outcome by the same record).
#
# Pythons: every one of PYTHONS that pyenv has (3.8, 3.11, 3.12, 3.13 on
# the machine the fixtures were captured on). Django: DJANGO_PYTHON, a
# python with django and tblib installed (default /tmp/tg-django-venv:
# `python3.11 -m venv /tmp/tg-django-venv && /tmp/tg-django-venv/bin/pip
# install django tblib`); its cases are skipped without it.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
crate="$(cd "$here/../.." && pwd)"
root="$(cd "$crate/../.." && pwd)"
projects="$root/tests/projects/parse/unittest"
out="$crate/tests/fixtures/unittest"
# A fixed place, so that the paths in tracebacks do not change from one
# capture to the next.
work=/tmp/testgate-capture/unittest
rm -rf "$work"
mkdir -p "$work" "$out"
cp -r "$projects"/. "$work/"
export PYTHONDONTWRITEBYTECODE=1 PYTHONHASHSEED=0 PYTHONPATH="$here/unittest"
unset PYTHONWARNINGS || true

python_of() {
    local v="$1" dir
    dir="$(ls -d "$(pyenv root 2>/dev/null || echo /root/.pyenv)/versions/$v".* 2>/dev/null | sort -V | tail -1)"
    [[ -n "$dir" && -x "$dir/bin/python3" ]] && echo "$dir/bin/python3"
}

# write_record CASE RECORD WHAT COMPLETE: CASE.expected and CASE.outcomes from
# the JSON record (a test's last failing outcome wins over its pass: a test
# whose subtest failed failed).
write_record() {
    local case="$1" record="$2" what="$3" complete="$4" xpass_named="${5:-yes}" verbose="${6:-no}"
    rm -f "$out/$case.running"
    python3 - "$record" "$out/$case" "$what" "$complete" "$xpass_named" "$verbose" <<'PY'
import json, sys
record, stem, what, complete, xpass_named, verbose = sys.argv[1:]
outcomes = {}
started = []
for line in open(record, encoding="utf-8"):
    r = json.loads(line)
    if r["outcome"] == "started":
        started.append(r["name"])
        continue
    now = outcomes.get(r["name"])
    if now in ("failed", "error") and r["outcome"] == "passed":
        continue
    if now == "failed" and r["outcome"] == "error":
        continue
    outcomes[r["name"]] = r["outcome"]
# Started and given no outcome: running when the output stopped. Only a
# verbose console names the test that started.
running = [name for name in dict.fromkeys(started) if name not in outcomes]
if complete == "yes" or verbose == "yes":
    for name in running:
        outcomes[name] = "running"
    if running:
        with open(stem + ".running", "w", encoding="utf-8") as f:
            f.write(f"# source: {what}; tests the result class saw start and give no outcome, same run\n")
            f.writelines(name + "\n" for name in running)
with open(stem + ".expected", "w", encoding="utf-8") as f:
    f.write(f"# source: {what}; names: the result class's record of each test (unittest's API), same run\n")
    for name, outcome in outcomes.items():
        if outcome in ("failed", "error"):
            f.write(name + "\n")
        elif outcome == "xpassed" and xpass_named == "yes":
            # An unexpected success fails unittest's run (wasSuccessful).
            f.write(name + "\n")
        elif outcome == "xpassed":
            f.write(f"# not on the console (python < 3.11 prints no header for an unexpected success, dots no name): {name}\n")
with open(stem + ".outcomes", "w", encoding="utf-8") as f:
    f.write(f"# source: {what}; every test's outcome from the result class's record, same run\n")
    if complete == "yes":
        f.write("# complete\n")
    for name, outcome in outcomes.items():
        if outcome == "xpassed":
            if xpass_named != "yes":
                continue
            # A failing name of the run: the report says failed.
            outcome = "failed"
        f.write(f"{outcome} {name}\n")
PY
}

# capture CASE PYTHON-VERSION PROJECT COMPLETE [UNITTEST ARGS...]
capture() {
    local case="$1" version="$2" project="$3" complete="$4" python xpass_named=yes verbose=no
    shift 4
    [[ "$version" == 3.8 && "$complete" == no ]] && xpass_named=no
    [[ " $* " == *" -v "* ]] && verbose=yes
    python="$(python_of "$version")" || {
        echo "no python $version: $case not captured" >&2
        return 0
    }
    local record="$work/$case.record"
    : >"$record"
    (cd "$work/$project" && TG_RECORD="$record" "$python" -m tg_unittest_record "$@" \
        >"$out/$case.log" 2>&1) || true
    write_record "$case" "$record" "python$version -m unittest $* (project $project)" "$complete" "$xpass_named" "$verbose"
}

for v in 3.8 3.11 3.12 3.13; do
    tag="${v/./}"
    capture "dots_py$tag" "$v" suite no
    capture "verbose_py$tag" "$v" suite yes -v
done
capture buffered_verbose 3.11 suite yes -v -b
capture buffered 3.11 suite no -b
capture failfast_verbose 3.11 suite yes -v -f
capture all_pass_verbose 3.11 allpass yes -v
capture all_pass 3.11 allpass no
capture import_error 3.11 broken no
capture no_tests_py311 3.11 empty yes
capture no_tests_py312 3.12 empty yes
capture lies_verbose 3.11 forged no -v
capture lies 3.11 forged no

# A forged Pass: a test fails, the next prints the closing `OK` and exits
# 0 before unittest's summary; verbose and dots.
capture exits_early_verbose 3.11 exits no -v
capture exits_early 3.11 exits no
# Dots name no test, and unittest died before its errors section: the
# failure the record holds is on the console as an `F` only.
sed -i 's/^test_a_fails /# on the console as an F only (no errors section): test_a_fails /' \
    "$out/exits_early.expected"

# A test that hangs, the run killed as a timeout kills it.
capture_killed() {
    local case="$1" project="$2" seconds="$3" python
    shift 3
    python="$(python_of 3.11)"
    local record="$work/$case.record"
    : >"$record"
    (cd "$work/$project" && TG_RECORD="$record" timeout -s KILL "$seconds" \
        "$python" -u -m tg_unittest_record "$@" >"$out/$case.log" 2>&1) || true
    write_record "$case" "$record" "python3.11 -m unittest $* (project $project), killed after ${seconds}s" yes yes yes
}
capture_killed hang_verbose hang 3 -v

# A real unittest-based library: Python-Markdown 3.7's own suite (`python -m
# unittest discover tests`, 970 tests), as released and with a bug put in
# its serializer (`>` no longer escaped: 20 tests fail). Its sdist is
# fetched with pip (skipped offline).
sources=/tmp/testgate-capture/sources
mkdir -p "$sources"
if [[ -d "$sources/markdown-3.7" ]] ||
    (cd "$sources" && pip download --no-deps --no-binary :all: markdown==3.7 -d . -q &&
        tar xzf markdown-3.7.tar.gz); then
    cp -r "$sources/markdown-3.7" "$work/markdown"
    cp -r "$sources/markdown-3.7" "$work/markdown_broken"
    sed -i 's/text = text.replace(">", "&gt;")/text = text.replace(">", ">")  # a bug/' \
        "$work/markdown_broken/markdown/serializers.py"
    capture markdown_verbose 3.11 markdown yes discover -v tests
    capture markdown 3.11 markdown no discover tests
    capture markdown_broken_verbose 3.11 markdown_broken yes discover -v tests
    capture markdown_broken 3.11 markdown_broken no discover tests
else
    echo "no Python-Markdown sdist: its cases not captured" >&2
fi

# Django's runner: manage.py test, verbose and in parallel, with the
# recording result class through --testrunner (a DiscoverRunner subclass
# from outside the project).
django="${DJANGO_PYTHON:-/tmp/tg-django-venv/bin/python}"
capture_django() {
    local case="$1" complete="$2"
    shift 2
    local record="$work/$case.record"
    : >"$record"
    (cd "$work/django" && TG_RECORD="$record" "$django" manage.py test \
        --testrunner tg_unittest_record.DjangoRunner "$@" >"$out/$case.log" 2>&1) || true
    write_record "$case" "$record" "manage.py test $* (Django $("$django" -m django --version))" "$complete"
}
if [[ -x "$django" ]]; then
    capture_django django_verbose yes -v 2
    capture_django django no
    capture_django django_parallel no --parallel 2
    capture_django django_parallel_verbose no --parallel 2 -v 2
else
    echo "no $django: the Django cases not captured" >&2
fi

# Django's own suite as SWE-bench runs it (`tests/runtests.py --verbosity 2
# --settings=test_sqlite --parallel 1 MODULES`), Django 5.2.9's sdist with a
# bug put in `slugify` (no longer lowercases), also in parallel. The
# result class comes through TEST_RUNNER in a settings module from outside
# the tree (tg_settings: test_sqlite's, plus the recording runner).
capture_runtests() {
    local case="$1" complete="$2"
    shift 2
    local record="$work/$case.record"
    : >"$record"
    (cd "$work/django-src/tests" && TG_RECORD="$record" PYTHONPATH="$PYTHONPATH:$work/django-src" \
        "$django" runtests.py --settings=tg_settings "$@" >"$out/$case.log" 2>&1) || true
    write_record "$case" "$record" "tests/runtests.py $* (Django 5.2.9, slugify broken)" "$complete"
}
if [[ -x "$django" ]] && { [[ -d "$sources/django-5.2.9" ]] ||
    (cd "$sources" && "$django" -m pip download --no-deps --no-binary :all: django==5.2.9 -d . -q &&
        tar xzf django-5.2.9.tar.gz); }; then
    cp -r "$sources/django-5.2.9" "$work/django-src"
    sed -i 's/    value = re.sub(r"\[^\\w\\s-\]", "", value.lower())/    value = re.sub(r"[^\\w\\s-]", "", value)  # a bug/' \
        "$work/django-src/django/utils/text.py"
    grep -q "# a bug" "$work/django-src/django/utils/text.py"
    cat >"$work/django-src/tests/tg_settings.py" <<'PY'
from test_sqlite import *  # noqa: F401,F403

TEST_RUNNER = "tg_unittest_record.DjangoRunner"
PY
    modules=(utils_tests.test_text template_tests.filter_tests.test_slugify basic)
    capture_runtests runtests_verbose yes --verbosity 2 --parallel 1 "${modules[@]}"
    capture_runtests runtests_parallel no --parallel 2 "${modules[@]}"
    capture_runtests runtests_parallel_verbose no --verbosity 2 --parallel 2 "${modules[@]}"
else
    echo "no Django sdist: the runtests.py cases not captured" >&2
fi
echo "unittest fixtures written to $out"
