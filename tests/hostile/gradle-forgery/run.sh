# Forgeries, Gradle (Debian's 4.4, offline, JUnit 4 from Debian's Maven
# repository): `hostile.ATest#fails` fails, then `hostile.BTest#forges`,
# by HOSTILE_MODE (passed on to the test JVM by build.gradle):
# - summary: writes Gradle's `BUILD SUCCESSFUL` to Gradle's own stdout
#   (the worker's parent's `/proc/PID/fd/1`) and kills Gradle, before it
#   writes its XML report; this script exits 0 whatever Gradle did.
# - ghost: writes `hostile.GhostTest > ghost FAILED` there, a test that
#   does not exist.
# - report: writes `build/test-results/test/TEST-hostile.Forged.xml`, a
#   report in which every test of ATest passed, beside Gradle's own.
# The driver runs `sh -c 'gradle test --offline; exit 0'` (summary) and
# `gradle test --offline`. This script is the summary's run by hand; run
# so (a script file: no report is asked) it is PASS today (docs/formats.md,
# Gradle, "Not refused").
export HOSTILE_MARKER="$1"
shift 2
gradle test --offline "$@"
exit 0
