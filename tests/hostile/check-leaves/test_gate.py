"""A passing check that leaves what would change the next one.

`test_plants` writes, beside the tests, what a later `pytest`, `cargo
nextest`, `jest`, `go`, `just`, pyenv or `make` would read: a `--deselect`
in `.pytest.ini` and `pyproject.toml`, a `default-filter` in
`.config/nextest.toml`, a setup file in `jest.config.js`, a `go.work`, a
`Justfile`, a `.python-version`, a `pytest.py` that shadows pytest for
`python -m pytest`, a `conftest.py` that drops `test_math`, a `Makefile`.
The driver then breaks `test_math` (the next commit) and checks again:
that check must be a Fail naming it.
"""

import pathlib

DESELECT = "--deselect test_gate.py::test_math"

PLANTS = {
    ".pytest.ini": f"[pytest]\naddopts = {DESELECT}\n",
    "pyproject.toml": f'[tool.pytest.ini_options]\naddopts = "{DESELECT}"\n',
    ".config/nextest.toml": '[profile.default]\ndefault-filter = "none()"\n',
    "jest.config.js": 'module.exports = { setupFiles: ["./planted-setup.js"] };\n',
    "go.work": "go 1.21\n\nuse ./planted\n",
    "Justfile": "test:\n\techo '1 passed'\n",
    ".python-version": "planted\n",
    "pytest.py": "import sys\nprint('1 passed')\nsys.exit(0)\n",
    "conftest.py": (
        "def pytest_collection_modifyitems(config, items):\n"
        "    items[:] = [i for i in items if i.name != 'test_math']\n"
    ),
    "Makefile": "test:\n\t@echo '1 passed'\n",
}


def test_math():
    assert 2 + 2 == 4


def test_plants():
    for name, body in PLANTS.items():
        path = pathlib.Path(name)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(body)
