# The hostile suite forgeries-maven is run by its runner itself
# (`mvn -o -B test -Dattack=NAME`, crates/testgate-cli/tests/cli/hostile/
# channels.rs); this script runs it so by hand: sh run.sh MARKER OUTSIDE NAME.
exec mvn -o -B test -Dattack="$3"
