"""A throwaway PostgreSQL from Debian's packages, for the tests that run
several `wavelength serve` nodes on one database: `initdb` in a private
folder under /tmp, started with its Unix socket there and no TCP port.
PostgreSQL refuses to run as root, and CI runs as root, so there it runs as
`nobody`, in a folder that user owns (as the Swift tests' PostgresServer)."""

import glob
import os
import pwd
import shutil
import subprocess
import tempfile


def binaries() -> str | None:
    """The newest installed PostgreSQL's bin folder, or None."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4]), reverse=True)
    return os.path.dirname(found[0]) if found else None


class Postgres:
    def __init__(self):
        self.bin = binaries()
        if self.bin is None:
            raise RuntimeError("PostgreSQL is not installed (apt-get install postgresql)")
        self.folder = tempfile.mkdtemp(prefix="wavelength-pg-", dir="/tmp")
        os.chmod(self.folder, 0o700)
        if os.getuid() == 0:
            nobody = pwd.getpwnam("nobody")
            os.chown(self.folder, nobody.pw_uid, nobody.pw_gid)

    @property
    def url(self) -> str:
        return f"postgres://wavelength@/postgres?host={self.folder}"

    def _run(self, program: str, *args: str) -> None:
        command = [os.path.join(self.bin, program), *args]
        if os.getuid() == 0:
            command = ["runuser", "-u", "nobody", "--", *command]
        subprocess.run(command, cwd=self.folder, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                       timeout=180)

    def __enter__(self) -> "Postgres":
        data = os.path.join(self.folder, "data")
        self._run("initdb", "-D", data, "-U", "wavelength", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync")
        self._run("pg_ctl", "-D", data, "-l", os.path.join(self.folder, "server.log"), "-w", "-t", "120",
                  "-o", f"-k {self.folder} -c listen_addresses='' -c fsync=off", "start")
        return self

    def __exit__(self, *exc) -> None:
        try:
            self._run("pg_ctl", "-D", os.path.join(self.folder, "data"), "-m", "fast", "-w", "-t", "60", "stop")
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)
