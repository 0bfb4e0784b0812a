"""A real PostgreSQL server for the server's store tests: a throwaway cluster made with
Debian's postgresql package (initdb, pg_ctl) in a temporary folder, listening on a free
loopback port, stopped and removed at the end. As root the cluster belongs to the
``postgres`` user the package creates (PostgreSQL refuses to run as root). The suite makes
one cluster per run (conftest.py's ``postgres_url``) and a fresh database per test."""

from __future__ import annotations

import glob
import itertools
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

INSTALL = "apt-get install postgresql (or bash tools/install-test-tools.sh as root)"


def postgres_bin() -> Path | None:
    """The folder of initdb and pg_ctl, or None."""
    found = shutil.which("initdb")
    if found:
        return Path(found).parent
    folders = sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: int(Path(p).parent.name))
    return Path(folders[-1]) if folders and Path(folders[-1], "initdb").exists() else None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class Cluster:
    """A running cluster: its server's URL, fresh databases on it, and an outage on
    demand (:meth:`stop` as a crash does, :meth:`start` again)."""

    def __init__(self, url: str, pg_ctl: Callable[..., None]) -> None:
        self.url = url
        self._pg_ctl = pg_ctl
        self._made = itertools.count(1)

    def stop(self) -> None:
        """Stops the server at once (``pg_ctl stop -m immediate``: no shutdown checkpoint, as a crash)."""
        self._pg_ctl("stop", "-m", "immediate")

    def start(self) -> None:
        self._pg_ctl("start")

    @contextmanager
    def database(self) -> Iterator[str]:
        """The URL of a new, empty database, dropped at the end (with any connection left)."""
        import psycopg

        name = f"test_{next(self._made)}"
        with psycopg.connect(self.url, autocommit=True) as admin:
            admin.execute(f"CREATE DATABASE {name}")
        try:
            yield self.url.rsplit("/", 1)[0] + "/" + name
        finally:
            with psycopg.connect(self.url, autocommit=True) as admin:
                admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@contextmanager
def postgres_server() -> Iterator[str]:
    """The URL of a fresh PostgreSQL database; skips (fails under CI) without PostgreSQL."""
    with postgres_cluster() as cluster:
        yield cluster.url


@contextmanager
def postgres_cluster() -> Iterator[Cluster]:
    """A fresh cluster that makes databases; skips (fails under CI) without PostgreSQL."""
    folder = postgres_bin()
    if folder is None:
        from tests.tool_helpers import skip_or_fail  # pytest's: benchmarks use these helpers without it

        skip_or_fail("the PostgreSQL tests need PostgreSQL's server: " + INSTALL)
    assert folder is not None
    as_root = os.geteuid() == 0
    run_as = ["runuser", "-u", "postgres", "--"] if as_root else []
    home = Path(tempfile.mkdtemp(prefix="diabolo-pg-"))
    data = home / "data"
    if as_root:
        shutil.chown(home, "postgres")
    port = _free_port()

    def run(*command: str) -> None:
        result = subprocess.run([*run_as, *command], capture_output=True, text=True, timeout=120)
        assert result.returncode == 0, f"{' '.join(command)} failed:\n{result.stdout}{result.stderr}"

    try:
        run(str(folder / "initdb"), "-D", str(data), "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync")
        options = f"-c listen_addresses=127.0.0.1 -p {port} -k {home} -c fsync=off"

        def pg_ctl(action: str, *more: str) -> None:
            run(str(folder / "pg_ctl"), "-D", str(data), "-o", options, "-l", str(home / "log"), "-w", *more, action)

        pg_ctl("start")
        try:
            yield Cluster(f"postgresql://postgres@127.0.0.1:{port}/postgres", pg_ctl)
        finally:
            pg_ctl("stop", "-m", "immediate")
    finally:
        shutil.rmtree(home, ignore_errors=True)
