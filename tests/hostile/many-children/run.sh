# 10,000 short-lived children, then a pass: nothing may be lost or leaked.
export HOSTILE_MARKER="$1"
i=0
while [ $i -lt 10000 ]; do
    (exit 0)
    i=$((i + 1))
done
echo "forked $i children"
