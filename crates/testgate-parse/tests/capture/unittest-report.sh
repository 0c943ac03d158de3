#!/usr/bin/env bash
# Reruns unittest over tests/projects/parse/unittest/* (and Django's
# `manage.py test` over its django project, and Django 5.2.9's own
# `tests/runtests.py` where its sdist is in /tmp/testgate-capture/sources,
# as unittest.sh leaves it) with testgate's own recorder
# (crates/testgate/src/runners/unittest_recorder.py, as sitecustomize.py
# first on PYTHONPATH, as a check puts it) and rewrites
# tests/fixtures/unittest-report/<case>.jsonl (the report it wrote) and
# <case>.expected (the failing tests as unittest's own result API records
# them in the same run: unittest/tg_unittest_record.py's result class).
# Pythons and Django as for unittest.sh.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
crate="$(cd "$here/../.." && pwd)"
root="$(cd "$crate/../.." && pwd)"
projects="$root/tests/projects/parse/unittest"
out="$crate/tests/fixtures/unittest-report"
work=/tmp/testgate-capture/unittest-report
rm -rf "$work"
mkdir -p "$work/recorder" "$out"
cp -r "$projects"/. "$work/"
cp "$root/crates/testgate/src/runners/unittest_recorder.py" "$work/recorder/sitecustomize.py"
export PYTHONDONTWRITEBYTECODE=1 PYTHONHASHSEED=0 PYTHONPATH="$work/recorder:$here/unittest"
unset PYTHONWARNINGS || true

python_of() {
    local v="$1" dir
    dir="$(ls -d "$(pyenv root 2>/dev/null || echo /root/.pyenv)/versions/$v".* 2>/dev/null | sort -V | tail -1)"
    [[ -n "$dir" && -x "$dir/bin/python3" ]] && echo "$dir/bin/python3"
}

# expected CASE WHAT: CASE.expected from the result class's record (a
# failure or error of a test or any of its subtests, an unexpected success).
expected() {
    python3 - "$work/$1.record" "$out/$1.expected" "$2" <<'PY'
import json, sys
record, expected, what = sys.argv[1:]
failing = {}
for line in open(record, encoding="utf-8"):
    r = json.loads(line)
    if r["outcome"] in ("failed", "error", "xpassed"):
        failing.setdefault(r["name"], None)
with open(expected, "w", encoding="utf-8") as f:
    f.write(f"# source: {what}; names: the result class's record (unittest's API), same run\n")
    f.writelines(name + "\n" for name in failing)
PY
}

# run CASE WHAT DIR COMMAND...: COMMAND in DIR with both recorders.
run() {
    local case="$1" what="$2" dir="$3"
    shift 3
    rm -f "$out/$case.jsonl"
    : >"$work/$case.record"
    (cd "$dir" && TG_RECORD="$work/$case.record" TESTGATE_UNITTEST_REPORT="$out/$case.jsonl" \
        "$@" >"$work/$case.log" 2>&1) || true
    expected "$case" "$what"
}

for v in 3.8 3.11 3.12 3.13; do
    python="$(python_of "$v")" || { echo "no python $v" >&2; continue; }
    run "suite_py${v/./}" "python$v -m unittest -v (project suite)" "$work/suite" \
        "$python" -m tg_unittest_record -v
done
python="$(python_of 3.11)"
run import_error "python3.11 -m unittest (project broken)" "$work/broken" "$python" -m tg_unittest_record
run all_pass "python3.11 -m unittest (project allpass)" "$work/allpass" "$python" -m tg_unittest_record
run no_tests "python3.11 -m unittest (project empty)" "$work/empty" "$python" -m tg_unittest_record

django="${DJANGO_PYTHON:-/tmp/tg-django-venv/bin/python}"
if [[ -x "$django" ]]; then
    run django_parallel "manage.py test --parallel 2 -v 2 (Django $("$django" -m django --version))" \
        "$work/django" "$django" manage.py test --testrunner tg_unittest_record.DjangoRunner \
        --parallel 2 -v 2
else
    echo "no $django: the Django cases not captured" >&2
fi
sources=/tmp/testgate-capture/sources
if [[ -x "$django" && -d "$sources/django-5.2.9" ]]; then
    cp -r "$sources/django-5.2.9" "$work/django-src"
    sed -i 's/    value = re.sub(r"\[^\\w\\s-\]", "", value.lower())/    value = re.sub(r"[^\\w\\s-]", "", value)  # a bug/' \
        "$work/django-src/django/utils/text.py"
    grep -q "# a bug" "$work/django-src/django/utils/text.py"
    cat >"$work/django-src/tests/tg_settings.py" <<'PY'
from test_sqlite import *  # noqa: F401,F403

TEST_RUNNER = "tg_unittest_record.DjangoRunner"
PY
    PYTHONPATH="$PYTHONPATH:$work/django-src" run runtests_parallel \
        "tests/runtests.py --parallel 2 (Django 5.2.9, slugify broken)" "$work/django-src/tests" \
        "$django" runtests.py --settings=tg_settings --parallel 2 \
        utils_tests.test_text template_tests.filter_tests.test_slugify basic
else
    echo "no Django 5.2.9 sdist: the runtests.py case not captured (run unittest.sh first)" >&2
fi
echo "unittest report fixtures written to $out"
