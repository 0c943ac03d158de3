# A suite that passes after planting a symbolic link where testgate itself
# will write on the host, as root, once the attempt is over: `sh run.sh
# MARKER OUTSIDE WHAT` where WHAT is
#   restore   replaces the project's `tests/` folder by a link to OUTSIDE:
#             `--restore` puts `tests/victim` back, and must not write it
#             through the link (aimed at /etc/cron.d, root code execution)
#   record    plants `verdict.json -> OUTSIDE/victim`: `check --record
#             verdict.json` must replace the link, not the host file
#   batch     plants `results.jsonl -> OUTSIDE/MARKER-cron` (a file that
#             does not exist yet): a resumed `batch --out results.jsonl`
#             must neither create it nor append to it
# OUTSIDE is read-only in the sandbox: the link is all the suite can do;
# the write would be testgate's.
export HOSTILE_MARKER="$1"
outside="$2"
case "$3" in
restore) rm -rf tests && ln -s "$outside" tests ;;
record) rm -f verdict.json && ln -s "$outside/victim" verdict.json ;;
batch) rm -f results.jsonl && ln -s "$outside/$HOSTILE_MARKER-cron" results.jsonl ;;
*) echo "unknown attack $3"; exit 2 ;;
esac
echo "1 passed, 0 failed"
exit 0
