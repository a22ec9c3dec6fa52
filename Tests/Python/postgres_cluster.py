"""A throw-away PostgreSQL 15 server for the tests: Debian's postgresql-15, a cluster made by initdb in a
temporary folder, run as the `postgres` user when the tests run as root, on a free loopback port, with
trust authentication (loopback only) and no fsync. `stop()` and `start()` take it down and up again on
the same port and data; `close()` removes it.
"""
from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import tempfile
from pathlib import Path

from test_web_page import free_port

BIN = Path("/usr/lib/postgresql/15/bin")


class PostgresCluster:
    def __init__(self, database: str = "swiftvision"):
        if not (BIN / "initdb").is_file():
            raise RuntimeError(f"{BIN / 'initdb'} is missing: scripts/install-system-packages.sh --tests installs postgresql-15")
        self.folder = Path(tempfile.mkdtemp(prefix="swiftvision-postgres-"))
        self.data = self.folder / "data"
        self.log = self.folder / "server.log"
        self.port = free_port()
        self.owner = pwd.getpwnam("postgres") if os.geteuid() == 0 else None
        if self.owner:
            os.chown(self.folder, self.owner.pw_uid, self.owner.pw_gid)
        self.run(BIN / "initdb", "-D", self.data, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--no-sync")
        self.start()
        self.run(BIN / "createdb", "-h", "127.0.0.1", "-p", self.port, "-U", "postgres", database)
        self.url = f"postgres://postgres@127.0.0.1:{self.port}/{database}"

    def run(self, *command) -> None:
        prefix = ["runuser", "-u", "postgres", "--"] if self.owner else []
        result = subprocess.run([*prefix, *map(str, command)], capture_output=True, text=True, cwd=self.folder)
        if result.returncode != 0:
            raise RuntimeError(f"{command[0]} failed ({result.returncode}): {result.stderr[-2000:]}")

    def start(self) -> None:
        options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off"
        self.run(BIN / "pg_ctl", "-D", self.data, "-o", options, "-l", self.log, "-w", "-t", "60", "start")

    def stop(self) -> None:
        self.run(BIN / "pg_ctl", "-D", self.data, "-m", "fast", "-w", "stop")

    def close(self) -> None:
        try:
            self.stop()
        except RuntimeError:
            pass
        shutil.rmtree(self.folder, ignore_errors=True)
