"""The real programs of the real-program benchmark (bench/real/run.py).

Each program is a Debian-packaged program doing copy-heavy work on input the
harness generates (deterministic: the same bytes on every machine), sized to
run 1-3 s.  The share of its time in mem* and the sizes it copies are in
docs/real-programs.md.  A program's output must be the same with every library:
its standard output (and exit status) is compared; lz4 and zstd verify their
frames' content checksums themselves, so a wrong byte makes them fail.

A program is either a command (argv, run in the data directory) or a server
started with the library preloaded, loaded by an unpreloaded client over
127.0.0.1, and stopped; its CPU time is the server's.
"""
import os
import random
import shutil
import socket
import subprocess
import time

# Debian's python3: the one with python3-numpy (a PATH may find another).
PY = "/usr/bin/python3"
HERE = os.path.dirname(os.path.abspath(__file__))


def corpus(size, seed):
    """Mixed bytes: incompressible runs, word text, zero runs (a file archive's mix)."""
    r = random.Random(seed)
    words = ["".join(r.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(r.randint(2, 10)))
             for _ in range(5000)]
    out = bytearray()
    while len(out) < size:
        k = r.random()
        if k < 0.35:
            out += r.randbytes(r.randint(4096, 262144))
        elif k < 0.9:
            n = r.randint(4096, 131072)
            out += " ".join(r.choice(words) for _ in range(n // 6)).encode()[:n]
        else:
            out += bytes(r.randint(1024, 65536))
    return bytes(out[:size])


def _stamp(path, version):
    """True when path was made by this version of its recipe."""
    try:
        with open(path + ".stamp") as f:
            return f.read() == version
    except OSError:
        return False


def _set_stamp(path, version):
    with open(path + ".stamp", "w") as f:
        f.write(version)


class Program:
    kind = "command"
    name = domain = what = ""
    packages = ()
    stdin = None            # file name in the data directory

    def setup(self, d):
        """Creates the inputs in data directory d (once)."""

    def argv(self, d):
        raise NotImplementedError


class SqliteBlobs(Program):
    name, domain = "sqlite-blobs", "database"
    what = ("sqlite3 reads 200 BLOBs of 1 MiB (4 KiB pages, so 256 overflow pages each) "
            "from its page cache, 60 times: a 4092-byte copy per page")
    packages = ("sqlite3", "python3")
    stdin = "sqlite-blobs.sql"

    def setup(self, d):
        db = os.path.join(d, "blobs.db")
        if not _stamp(db, "1"):
            if os.path.exists(db):
                os.remove(db)
            subprocess.run([PY, "-c", """
import random, sqlite3, sys
c = sqlite3.connect(sys.argv[1]); c.execute('pragma page_size=4096')
c.execute('create table t(id integer primary key, b blob)')
r = random.Random(1)
for i in range(200):
    c.execute('insert into t(b) values(?)', (r.randbytes(1 << 20),))
c.commit()
""", db], check=True)
            _set_stamp(db, "1")
        with open(os.path.join(d, self.stdin), "w") as f:
            f.write("pragma cache_size=-400000;\n")
            f.write("select count(*) from t where b < x'80';\n" * 60)

    def argv(self, d):
        return ["sqlite3", "blobs.db"]


class Lz4Decompress(Program):
    name, domain = "lz4-d", "compression"
    what = "lz4 -d of 1 GiB of mixed data (4 frames; literal runs copied with memcpy)"
    packages = ("lz4",)

    def setup(self, d):
        f = os.path.join(d, "corpus.lz4")
        if not _stamp(f, "1"):
            _corpus_file(d)
            subprocess.run(["lz4", "-q", "-f", "corpus.bin", "one.lz4"], cwd=d, check=True)
            _concat(d, "one.lz4", f, 4)
            _set_stamp(f, "1")

    def argv(self, d):
        # The output goes to /dev/null: lz4 checks each frame's content
        # checksum and fails on a wrong byte.
        return ["sh", "-c", "lz4 -dc corpus.lz4 > /dev/null"]


class ZstdDecompress(Program):
    name, domain = "zstd-d", "compression"
    what = "zstd -d of 1 GiB of mixed data (4 frames, level 3)"
    packages = ("zstd",)

    def setup(self, d):
        f = os.path.join(d, "corpus.zst")
        if not _stamp(f, "1"):
            _corpus_file(d)
            subprocess.run(["zstd", "-q", "-f", "-3", "corpus.bin", "-o", "one.zst"],
                           cwd=d, check=True)
            _concat(d, "one.zst", f, 4)
            _set_stamp(f, "1")

    def argv(self, d):
        return ["sh", "-c", "zstd -dcq corpus.zst > /dev/null"]


class PythonPickle(Program):
    name, domain = "python-pickle", "serialization"
    what = ("python3 pickles 2000 records with 4-64 KiB payloads into a BytesIO and "
            "loads them back, 12 times")
    packages = ("python3",)

    def argv(self, d):
        return [PY, os.path.join(HERE, "py_pickle.py")]


class NumpyRows(Program):
    name, domain = "numpy-rows", "numeric arrays"
    what = ("numpy gathers, concatenates, slices and stacks rows of a 4096 x 512 float64 "
            "array (4 KiB rows), 80 times")
    packages = ("python3-numpy",)

    def argv(self, d):
        return [PY, os.path.join(HERE, "np_rows.py")]


class LuaStrings(Program):
    name, domain = "lua-strings", "interpreter strings"
    what = "lua5.4 joins 2000 strings of 100 B-8 KiB with table.concat and cuts 4 KiB pieces"
    packages = ("lua5.4",)

    def argv(self, d):
        return ["lua5.4", os.path.join(HERE, "strings.lua")]


class PerlText(Program):
    name, domain = "perl-text", "text processing"
    what = "perl joins 5000 lines into a document, splits it into 4092-byte records, appends"
    packages = ("perl",)

    def argv(self, d):
        return ["perl", os.path.join(HERE, "text.pl")]


class Server(Program):
    """A server preloaded, a client unpreloaded; the digest of the server's
    state after the load is the output."""
    kind = "server"

    def server_argv(self, d, port):
        raise NotImplementedError

    def client_argv(self, d, port):
        raise NotImplementedError

    def digest_argv(self, d, port):
        raise NotImplementedError

    def stop(self, d, port):
        raise NotImplementedError


class RedisSetGet(Server):
    name, domain = "redis", "key-value server"
    what = ("redis-server answering redis-benchmark's SET and GET of 16 KiB values over "
            "127.0.0.1 (1000 keys, pipelined 16, 2 connections); the server's CPU time")
    packages = ("redis-server", "redis-tools")

    def server_argv(self, d, port):
        return ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                "--appendonly", "no", "--daemonize", "no", "--enable-debug-command", "local",
                "--dir", d, "--logfile", ""]

    def client_argv(self, d, port):
        return ["redis-benchmark", "-p", str(port), "-q", "-t", "set,get", "-d", "16384",
                "-n", "100000", "-P", "16", "-c", "2", "-r", "1000"]

    def digest_argv(self, d, port):
        return ["redis-cli", "-p", str(port), "debug", "digest"]

    def stop(self, d, port):
        subprocess.run(["redis-cli", "-p", str(port), "shutdown", "nosave"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def _corpus_file(d):
    f = os.path.join(d, "corpus.bin")
    if not _stamp(f, "1"):
        with open(f, "wb") as out:
            out.write(corpus(256 << 20, 1))
        _set_stamp(f, "1")


def _concat(d, one, target, times):
    with open(target, "wb") as out:
        for _ in range(times):
            with open(os.path.join(d, one), "rb") as f:
                shutil.copyfileobj(f, out, 1 << 20)
    os.remove(os.path.join(d, one))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_listening(port, proc, timeout=20):
    end = time.time() + timeout
    while time.time() < end:
        if proc.poll() is not None:
            return False
        try:
            with socket.create_connection(("127.0.0.1", port), 0.2):
                return True
        except OSError:
            time.sleep(0.02)
    return False


PROGRAMS = [SqliteBlobs(), Lz4Decompress(), ZstdDecompress(), PythonPickle(), NumpyRows(),
            RedisSetGet(), LuaStrings(), PerlText()]
