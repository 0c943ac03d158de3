"""Tests of a tool that works on git repositories: they commit, as such
tests do, with whatever identity the machine gives git, or with their own."""

import os
import subprocess


def git(repo, *args, env=None):
    return subprocess.run(
        ["git", "-C", str(repo), *args],
        check=True,
        capture_output=True,
        text=True,
        env=env,
    ).stdout.strip()


def new_repo(path):
    subprocess.run(["git", "init", "-q", str(path)], check=True)
    (path / "f").write_text("x")
    git(path, "add", "f")
    return path


def test_commit_with_the_machines_identity(tmp_path):
    repo = new_repo(tmp_path)
    git(repo, "commit", "-qm", "first")
    assert git(repo, "rev-list", "--count", "HEAD") == "1"


def test_commit_with_the_repositorys_own_identity(tmp_path):
    repo = new_repo(tmp_path)
    git(repo, "config", "user.name", "Repo Author")
    git(repo, "config", "user.email", "repo@example.org")
    git(repo, "commit", "-qm", "first")
    assert git(repo, "log", "-1", "--format=%an <%ae>") == "Repo Author <repo@example.org>"


def test_commit_with_the_environments_identity(tmp_path):
    repo = new_repo(tmp_path)
    env = dict(os.environ, GIT_AUTHOR_NAME="Env Author", GIT_AUTHOR_EMAIL="env@example.org")
    git(repo, "commit", "-qm", "first", env=env)
    assert git(repo, "log", "-1", "--format=%an <%ae>") == "Env Author <env@example.org>"


def test_the_projects_own_repository_is_readable():
    # Run as root on a checkout another user owns, git refuses it ("detected
    # dubious ownership") unless the configuration marks it safe. Outside a
    # repository git says "not a git repository", which is not that.
    here = os.path.dirname(os.path.abspath(__file__))
    status = subprocess.run(["git", "status", "--porcelain"], cwd=here, capture_output=True, text=True)
    assert "dubious ownership" not in status.stderr, status.stderr
