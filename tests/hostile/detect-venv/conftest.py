# `testgate check` with no command, on a project whose files the attacker
# wrote: this conftest.py makes it a pytest project, and the driver
# (`paths::a_detected_venv_python_runs_only_inside_the_sandbox`) plants
# `.venv/bin/python`, a script that attacks the host (writes OUTSIDE/victim
# and /tmp), and `go.mod` and `package.json` as links out of the project
# (to OUTSIDE/victim, to /dev/zero). Detection must run nothing on the host
# and follow no link: it names the project's python, which runs only in
# the sandbox; the links are not read, so pytest is the only runner found.
