# TCP and UDP to listeners on the host's loopback (ports $3 and $4), a
# host Unix socket ($2/sock), and a DNS lookup. Passes when TCP, the Unix
# socket and DNS failed (UDP cannot tell; the harness checks its listener).
export HOSTILE_MARKER="$1"
perl -MIO::Socket::INET -MIO::Socket::UNIX -e '
    my ($tcp, $udp, $unix, $marker) = @ARGV;
    my $escaped = 0;
    my $t = IO::Socket::INET->new(PeerAddr => "127.0.0.1", PeerPort => $tcp, Proto => "tcp", Timeout => 3);
    if ($t) { print $t "$marker\n"; print "TCP CONNECTED\n"; $escaped = 1 } else { print "tcp: $!\n" }
    my $u = IO::Socket::INET->new(PeerAddr => "127.0.0.1", PeerPort => $udp, Proto => "udp");
    if ($u && $u->send($marker)) { print "udp: sent (to this sandbox'"'"'s own loopback, if any)\n" } else { print "udp: $!\n" }
    my $x = IO::Socket::UNIX->new(Peer => $unix, Type => SOCK_STREAM);
    if ($x) { print $x "$marker\n"; print "UNIX CONNECTED\n"; $escaped = 1 } else { print "unix: $!\n" }
    exit $escaped;
' "$3" "$4" "$2/sock" "$1"
escaped=$?
if getent hosts example.com; then echo "DNS RESOLVED"; escaped=1; else echo "dns: no answer"; fi
exit $escaped
