# Six tests, each against the fixture's server; run with `pytest -q`,
# which prints failures only at the end.
import urllib.request

import pytest


@pytest.mark.parametrize("n", range(6))
def test_answers(server, n):
    with urllib.request.urlopen(server, timeout=10) as response:
        assert response.read() == b"hello"
