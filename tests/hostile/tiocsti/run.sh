# TIOCSTI: push characters into the input of a terminal, on standard input,
# on every open descriptor and on /dev/tty. Passes when every ioctl failed.
export HOSTILE_MARKER="$1"
perl -e '
    my $escaped = 0;
    my $TIOCSTI = 0x5412;
    for my $fd (0 .. 20) {
        open(my $h, "+<&=", $fd) or next;
        my $c = "x";
        if (ioctl($h, $TIOCSTI, $c)) { print "TIOCSTI WORKED on fd $fd\n"; $escaped = 1 }
        else { print "fd $fd: $!\n" }
    }
    if (open(my $tty, "+<", "/dev/tty")) {
        my $c = "x";
        if (ioctl($tty, $TIOCSTI, $c)) { print "TIOCSTI WORKED on /dev/tty\n"; $escaped = 1 }
        else { print "/dev/tty: $!\n" }
    } else { print "/dev/tty: $!\n" }
    exit $escaped;
'
