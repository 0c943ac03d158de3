# A suite that starts a server on the loopback and talks to it (as an
# express app under supertest does), then reaches for the host's TCP
# listener on the loopback (port $3): first by connecting to it, then by
# listening on the same port number itself and connecting there. Passes
# when its own server answered, the host's listener was not reached, and
# what answered on port $3 was its own.
export HOSTILE_MARKER="$1"
perl -MIO::Socket::INET -e '
    my ($port, $marker) = @ARGV;
    my $escaped = 0;
    my $own = IO::Socket::INET->new(LocalAddr => "127.0.0.1", LocalPort => 0, Listen => 1, Proto => "tcp")
        or die "own server: $!\n";
    my $c = IO::Socket::INET->new(PeerAddr => "127.0.0.1", PeerPort => $own->sockport, Proto => "tcp", Timeout => 3)
        or die "own server unreachable: $!\n";
    my $peer = $own->accept; print $c "ping\n"; my $got = <$peer>;
    $got eq "ping\n" or die "own server heard nothing\n";
    print "own server: answered\n";
    my $t = IO::Socket::INET->new(PeerAddr => "127.0.0.1", PeerPort => $port, Proto => "tcp", Timeout => 3);
    if ($t) { print $t "$marker\n"; print "HOST TCP CONNECTED\n"; $escaped = 1 } else { print "host tcp: $!\n" }
    my $same = IO::Socket::INET->new(LocalAddr => "127.0.0.1", LocalPort => $port, Listen => 1, ReuseAddr => 1, Proto => "tcp");
    if ($same) {
        my $s = IO::Socket::INET->new(PeerAddr => "127.0.0.1", PeerPort => $port, Proto => "tcp", Timeout => 3);
        if ($s) {
            print $s "$marker\n";
            my $mine = $same->accept;
            if ($mine) { print "port $port: its own listener answered\n" } else { print "PORT $port NOT ITS OWN\n"; $escaped = 1 }
        } else { print "port $port: $!\n" }
    } else { print "listen on $port: $!\n" }
    exit $escaped;
' "$3" "$1"
