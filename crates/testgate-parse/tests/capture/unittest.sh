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
    local case="$1" record="$2" what="$3" complete="$4" xpass_named="${5:-yes}"
    python3 - "$record" "$out/$case" "$what" "$complete" "$xpass_named" <<'PY'
import json, sys
record, stem, what, complete, xpass_named = sys.argv[1:]
outcomes = {}
for line in open(record, encoding="utf-8"):
    r = json.loads(line)
    now = outcomes.get(r["name"])
    if now in ("failed", "error") and r["outcome"] == "passed":
        continue
    if now == "failed" and r["outcome"] == "error":
        continue
    outcomes[r["name"]] = r["outcome"]
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
    local case="$1" version="$2" project="$3" complete="$4" python xpass_named=yes
    shift 4
    [[ "$version" == 3.8 && "$complete" == no ]] && xpass_named=no
    python="$(python_of "$version")" || {
        echo "no python $version: $case not captured" >&2
        return 0
    }
    local record="$work/$case.record"
    : >"$record"
    (cd "$work/$project" && TG_RECORD="$record" "$python" -m tg_unittest_record "$@" \
        >"$out/$case.log" 2>&1) || true
    write_record "$case" "$record" "python$version -m unittest $* (project $project)" "$complete" "$xpass_named"
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
capture lies_verbose 3.11 forged no -v
capture lies 3.11 forged no

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
echo "unittest fixtures written to $out"
