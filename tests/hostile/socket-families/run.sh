# Socket families a network namespace does not isolate, or that reach
# kernel code for no test's sake: AF_VSOCK (the hypervisor and the host on
# a VM), AF_PACKET, AF_ALG, AF_XDP, AF_TIPC, AF_KEY, AF_CAN, AF_BLUETOOTH,
# AF_RDS. Passes when every one is refused with EAFNOSUPPORT and the
# allowed ones (AF_INET, AF_INET6, AF_NETLINK) still work.
export HOSTILE_MARKER="$1"
exec perl -e '
    use Errno qw(EAFNOSUPPORT);
    my $escaped = 0;
    # [family, type, name]; the numbers are the kernel ABI.
    for my $f ([40, 1, "AF_VSOCK stream"], [40, 2, "AF_VSOCK dgram"],
               [17, 3, "AF_PACKET"], [38, 5, "AF_ALG"], [44, 3, "AF_XDP"],
               [30, 5, "AF_TIPC"], [15, 3, "AF_KEY"], [29, 3, "AF_CAN"],
               [31, 5, "AF_BLUETOOTH"], [21, 5, "AF_RDS"]) {
        my ($domain, $type, $name) = @$f;
        if (socket(my $s, $domain, $type, 0)) {
            print "CREATED $name\n"; $escaped = 1;
        } elsif ($! == EAFNOSUPPORT) {
            print "refused: $name ($!)\n";
        } else {
            print "REFUSED OTHERWISE: $name ($!)\n"; $escaped = 1;
        }
    }
    for my $f ([2, 1, "AF_INET"], [10, 2, "AF_INET6"], [16, 3, "AF_NETLINK"]) {
        my ($domain, $type, $name) = @$f;
        if (socket(my $s, $domain, $type, 0)) { print "allowed: $name\n" }
        else { print "BROKEN: $name ($!)\n"; $escaped = 1 }
    }
    exit $escaped;
'
