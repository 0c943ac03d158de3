"""A hostile suite for the container check: each test tries to reach what
the sandbox must keep from it and passes only if it could not. What it did
reach it also writes into the project (read.txt, wrote.txt), where
tests/containers/inside-container looks after the run: a test that lied
about its own result is caught there, not trusted."""
import os
import pathlib
import socket

MARKER = os.environ.get("HOSTILE_MARKER", "no-marker")

# The credential canaries: root's and the unprivileged user's.
SECRETS = [
    "/root/.aws/credentials",
    "/root/.ssh/id_ed25519",
    "/home/testgate-ci/.aws/credentials",
]

# Places outside the project: the container's homes, shared temporary
# directories, system directories, and a directory beside the project.
OUTSIDE = [
    "/work/outside/victim",
    "/work/outside/" + MARKER,
    "/root/" + MARKER,
    "/home/testgate-ci/" + MARKER,
    "/tmp/" + MARKER,
    "/var/tmp/" + MARKER,
    "/etc/" + MARKER,
    "/opt/" + MARKER,
    "/" + MARKER,
]


def test_credential_canaries_are_unreadable():
    read = []
    for path in SECRETS:
        try:
            with open(path, encoding="utf-8", errors="replace") as secret:
                read.append(path + ": " + secret.read())
        except OSError:
            pass
    pathlib.Path("read.txt").write_text("".join(read), encoding="utf-8")
    assert not read, read


def test_nothing_is_written_outside_the_project():
    wrote = []
    for path in OUTSIDE:
        try:
            with open(path, "a", encoding="utf-8") as target:
                target.write(MARKER + "\n")
            wrote.append(path)
        except OSError:
            pass
    pathlib.Path("wrote.txt").write_text("\n".join(wrote), encoding="utf-8")
    assert not wrote, wrote


def test_a_service_on_the_loopback_is_unreachable():
    port = int(os.environ["SERVICE_PORT"])
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=5):
            reached = True
    except OSError:
        reached = False
    assert not reached
