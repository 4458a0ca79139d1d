"""A throwaway PostgreSQL cluster for the benchmarks, as Tools/lib/pg-cluster.sh makes one for the
e2e: initdb in a temporary directory, the server on a Unix socket there only, stopped by its PID.
initdb refuses to run as root, so as root the cluster runs as Debian's `postgres` user.

    cluster = Cluster()
    cluster.start()
    url = cluster.new_database("bench")   # postgresql://fresh@%2Ftmp%2F…/bench
    cluster.stop()
"""
import glob
import os
import shutil
import signal
import subprocess
import tempfile
import time


def _bin(name):
    versions = sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda path: int(path.split("/")[-2]))
    if not versions:
        raise SystemExit("PostgreSQL is not installed (run make setup)")
    return os.path.join(versions[-1], name)


class Cluster:
    def start(self):
        self.directory = tempfile.mkdtemp(prefix="fresh-pg-bench-", dir="/tmp")  # reachable by the server's user
        if os.geteuid() == 0:
            shutil.chown(self.directory, "postgres")
        os.chmod(self.directory, 0o700)
        self._as_owner([_bin("initdb"), "-D", f"{self.directory}/data", "-A", "trust", "-U", "fresh", "--no-sync", "-E", "UTF8"])
        # The server's own durability stays on (fsync, full pages): the benchmark measures a real server.
        self._as_owner([_bin("pg_ctl"), "-D", f"{self.directory}/data", "-l", f"{self.directory}/server.log", "-w", "-t", "60",
                        "-o", f"-k {self.directory} -c listen_addresses=", "start"])
        with open(f"{self.directory}/data/postmaster.pid") as pid_file:
            self.pid = int(pid_file.readline())

    def stop(self):
        os.kill(self.pid, signal.SIGINT)  # fast shutdown
        while True:
            try:
                os.kill(self.pid, 0)
            except ProcessLookupError:
                break
            time.sleep(0.05)
        shutil.rmtree(self.directory, ignore_errors=True)

    def url(self, database):
        return f"postgresql://fresh@{self.directory.replace('/', '%2F')}/{database}"

    def new_database(self, name):
        self.sql("postgres", f"CREATE DATABASE {name}")
        return self.url(name)

    def sql(self, database, statement):
        return subprocess.run([_bin("psql"), "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", self.directory, "-U", "fresh",
                               "-d", database, "-c", statement], capture_output=True, text=True, check=True).stdout.strip()

    def _as_owner(self, command):
        if os.geteuid() == 0:
            command = ["runuser", "-u", "postgres", "--"] + command
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
