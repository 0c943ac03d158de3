# The loopback supervisor's time-of-check race (docs/sandbox.md, "A
# supervised loopback"): a thread flips the port of one sockaddr between
# the suite's own listener and the host's listener on the loopback (port
# $3) while the main thread connects with that sockaddr again and again.
# A supervisor that checked the address and then let the kernel re-read
# it would sooner or later connect to the host. Prints what it reached;
# the harness checks the host's listener heard nothing.
export HOSTILE_MARKER="$1"
exec python3 - "$3" <<'PY'
import ctypes, socket, struct, sys, threading

libc = ctypes.CDLL(None, use_errno=True)
host = int(sys.argv[1])
own = socket.socket()
own.bind(("127.0.0.1", 0))
own.listen(4096)
mine = own.getsockname()[1]

def serve():
    while True:
        peer, _ = own.accept()
        peer.close()

threading.Thread(target=serve, daemon=True).start()
address = ctypes.create_string_buffer(
    struct.pack("=H", socket.AF_INET) + struct.pack("!H", mine) + bytes([127, 0, 0, 1]) + bytes(8), 16)
ports = [struct.pack("!H", mine), struct.pack("!H", host)]
stop = False

def swap():
    i = 0
    while not stop:
        ctypes.memmove(ctypes.addressof(address) + 2, ports[i & 1], 2)
        i += 1

threading.Thread(target=swap, daemon=True).start()
reached, refused = 0, 0
for _ in range(2000):
    s = socket.socket()
    if libc.connect(s.fileno(), address, 16) == 0:
        reached += 1
    else:
        refused += 1
    s.close()
stop = True
print("own listener reached %d times, %d refused" % (reached, refused), flush=True)
print("1 passed, 0 failed")
PY
