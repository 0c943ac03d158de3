# Secrets testgate holds back, looked for from inside: its environment
# (index and registry URLs with a token in the path or the query), and
# each file named after OUTSIDE (the key `--sign` signs the record with,
# another project's private cache). Everything read goes to dump.bin, which
# the harness searches; the script also fails when it finds a planted
# value (each holds "exfil").
export HOSTILE_MARKER="$1"
shift 2
{
    echo "== env"; env
    for f in "$@"; do
        echo "== $f"; cat "$f"
        echo "== ls $(dirname "$f")"; ls -la "$(dirname "$f")"
    done
} > dump.bin 2>&1
if grep -a -q "exfil" dump.bin; then echo "FOUND a held value"; exit 1; fi
echo "nothing held back was found"
