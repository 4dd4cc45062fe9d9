"""``--sandbox``: every agent program runs inside bubblewrap, seeing almost nothing.

Student code is untrusted. With a :class:`Sandbox`, :class:`~arena.remote.process.AgentProcess`
starts a program through :meth:`Sandbox.confine` -- the one place where programs are
wrapped -- as ``bwrap ... -- PROGRAM``, so that the program:

* sees the system (``/usr``, the library links, a few files of ``/etc``) read-only, the
  Python that runs it and arena's own sources read-only, and its own folder (the
  ``py:`` file's folder, a course agent's folder, a ``cmd:`` script's folder) read-only,
  as its working directory; nothing else: not ``/home``, ``/root``, ``/work``, other
  students' folders, the results database or the host's ``/tmp``;
* writes only to a private ``/tmp`` (a tmpfs of :attr:`Sandbox.tmp_mb` MB, also its
  ``HOME`` and ``TMPDIR``), gone when the game ends;
* has no network (its own network namespace: not even the host's 127.0.0.1), its own
  PID, IPC and UTS namespaces, no capabilities, a cleared environment, and dies with
  arena (``--die-with-parent``, plus arena's process-group reaping);
* runs under the memory and CPU limits arena already sets, at most
  :attr:`Sandbox.processes` processes (``RLIMIT_NPROC`` inside its own user namespace;
  root, whom the kernel exempts from that limit, gets a ``pids`` cgroup instead), and
  files of at most :attr:`Sandbox.file_mb` MB -- which also bounds its stderr log.

Where bubblewrap is missing, cannot create namespaces, or (as root) no ``pids`` cgroup
can be made, :func:`require` raises a one-line :class:`SandboxUnavailable` naming what is
missing and how to get it: a sandboxed run never quietly runs unsandboxed. The probe runs
once per process. ``docs/sandbox.md`` says what an agent sees and what it costs.

Tests: tests/remote/test_sandbox.py, tests/remote/course/test_sandboxed_courses.py
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import itertools
import os
import resource
import shlex
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from arena.core.errors import ArenaError

BWRAP_ENV = "ARENA_BWRAP"
"""Environment variable naming the bubblewrap program (default: ``bwrap`` on PATH)."""

INSTALL = "sudo apt-get install bubblewrap (Debian/Ubuntu), or dnf install bubblewrap"

SYSTEM_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
"""What every program needs read-only (on merged-/usr systems most are links into /usr)."""

ETC_FILES = (
    "ld.so.cache",
    "ld.so.conf",
    "ld.so.conf.d",
    "localtime",
    "timezone",
    "alternatives",
    "passwd",
    "group",
    "nsswitch.conf",
    "hosts",
    "mime.types",
    "python3",
    f"python{sys.version_info[0]}.{sys.version_info[1]}",
    "ssl",
    "ca-certificates",
)
"""The parts of /etc a program may read (not shadow files, not the host's configuration)."""

KEPT_ENV = ("PATH", "LANG", "LANGUAGE", "TZ", "PYTHONIOENCODING", "PYTHONHASHSEED", "TERM")
"""Environment variables passed into the sandbox (besides ``LC_*`` and thread counts);
the rest -- tokens, the teacher's paths -- is cleared."""

THREAD_ENV = ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS", "NUMBA_NUM_THREADS")

HOSTNAME = "arena-sandbox"


class SandboxUnavailable(ArenaError):
    """``--sandbox`` cannot be honoured here (a one-line reason and the remedy)."""


@dataclass(frozen=True)
class Sandbox:
    """How programs are confined (``--sandbox``): pass one to an agent program's launch.

    >>> Sandbox().processes, Sandbox().tmp_mb
    (64, 64)
    """

    processes: int = 64
    """Most processes (and threads) the program may run at once, itself included."""
    tmp_mb: int = 64
    """Size of its private writable ``/tmp`` (HOME, TMPDIR)."""
    file_mb: int = 64
    """Largest file it may write: bounds its stderr log (the agent's prints) on arena's disk."""
    copy_mb: int = 64
    """The program's folder up to this size is a private writable copy (many student
    programs write files next to themselves); a larger one is visible read-only."""

    def confine(self, argv: list[str], cwd: str | None) -> Confined:
        """The launch of ``argv`` (run from ``cwd``, arena's own when None) in the sandbox.

        The program's folder -- ``cwd``, or for a command run from arena's folder the folder
        of its script (the first argument naming a file; a relative path is made absolute)
        -- is its working directory: a private writable copy up to :attr:`copy_mb`, else
        visible read-only."""
        require()
        argv, folder = _program_folder(argv, cwd)
        shown = [p for p in _readable(argv) if folder is None or not _within(p, folder)]
        steps: list[str] = []  # shell commands run in the sandbox before the program
        mounts: list[str] = []
        compiled = _numba_cache() if _is_python(argv[0]) else None
        if compiled is not None:  # arena's compiled kernels, linked to: not compiled again
            mounts += ["--ro-bind", compiled, NUMBA_COPY]
            steps.append(f"cp -Rs {NUMBA_COPY} {NUMBA_DIR} 2>/dev/null")
        if folder is not None:
            size = _copyable(folder, self.copy_mb << 20, [*shown, *_binds_of_arena()])
            if size is None:  # too large, or holding arena's own files: read-only
                shown.append(folder)
            else:  # a writable private copy at the folder's own path, gone with the game
                mounts += ["--size", str(size + (self.tmp_mb << 20)), "--tmpfs", folder]
                mounts += ["--ro-bind", folder, FOLDER_COPY]
                quoted = shlex.quote(folder)
                steps.append(f"cp -pR {FOLDER_COPY}/. {quoted}/ || exit {COPY_FAILED}")
        cgroup = _Cgroup.make(self.processes) if os.geteuid() == 0 else None
        inner = list(argv)
        if cgroup is None:  # the limit is set inside, in the program's own user namespace
            inner = [_prlimit(), f"--nproc={self.processes}", "--", *inner]
        if steps:
            inner = ["/bin/sh", "-c", "; ".join([*steps, 'exec "$@"']), "sh", *inner]
        command = [
            _bwrap_path(),
            *_base_options(self.tmp_mb),
            *_binds(shown),
            *mounts,
            "--remount-ro",  # bwrap's own root, an unbounded tmpfs, once the binds are made
            "/",
            "--chdir",
            folder or "/tmp",
            *_environment(),
            "--",
            *inner,
        ]
        return Confined(command, self.file_mb, cgroup)


@dataclass
class Confined:
    """A program's sandboxed launch: the command to start (no ``cwd``: bwrap changes to
    the folder itself), what its child sets before ``exec``, what to clean up after."""

    argv: list[str]
    file_mb: int
    cgroup: _Cgroup | None = None
    released: bool = field(default=False, init=False)

    def in_child(self) -> None:
        """Between fork and exec (async-signal-safe calls only): join the cgroup, cap files."""
        if self.cgroup is not None:
            self.cgroup.join()
        size = self.file_mb << 20
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))

    def release(self) -> None:
        """After the program was killed: kill whatever is left in its cgroup, remove it."""
        if self.cgroup is not None and not self.released:
            self.cgroup.remove()
        self.released = True


def require() -> None:
    """Raise :class:`SandboxUnavailable` unless programs can be sandboxed here (probed once)."""
    problem = _probe(_bwrap_path(), os.geteuid() == 0)
    if problem:
        raise SandboxUnavailable(problem)


def _bwrap_path() -> str:
    named = os.environ.get(BWRAP_ENV)
    if named:
        return named
    return shutil.which("bwrap") or "bwrap"


@functools.lru_cache(maxsize=8)
def _probe(bwrap: str, root: bool) -> str:
    """Why sandboxing fails here ("" when it works): a real launch of ``true``."""
    found = shutil.which(bwrap)
    if found is None:
        return f"--sandbox needs bubblewrap ({bwrap!r} not found): {INSTALL}"
    command = [found, *_base_options(1), *_binds([]), "--remount-ro", "/", "--", "true"]
    try:
        done = subprocess.run(command, capture_output=True, timeout=30, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"--sandbox: bubblewrap ({found}) does not run: {exc}"
    if done.returncode != 0:
        said = done.stderr.decode("utf-8", "replace").strip().splitlines()
        why = said[-1] if said else f"exit status {done.returncode}"
        if "unknown option" in why.lower():
            return f"--sandbox needs bubblewrap 0.8 or later ({found}: {why})"
        return (
            f"--sandbox: bubblewrap cannot create its namespaces here ({why}); unprivileged "
            "user namespaces may be disabled: sysctl kernel.unprivileged_userns_clone=1 "
            "or kernel.apparmor_restrict_unprivileged_userns=0 (or run in a VM or container "
            "that allows them)"
        )
    if not root and _kernel() < (5, 14):
        return (
            f"--sandbox needs Linux 5.14 or later to limit each sandbox's processes (this is "
            f"{os.uname().release}; older kernels count a user's processes machine-wide)"
        )
    if not root and shutil.which("prlimit") is None:
        return (
            "--sandbox needs prlimit (util-linux) to limit processes: sudo apt-get install "
            "util-linux"
        )
    if root and _Cgroup.base() is None:
        return (
            "--sandbox as root needs a writable pids cgroup to limit processes (the kernel "
            "exempts root from RLIMIT_NPROC) and found none under /sys/fs/cgroup: run arena "
            "as an ordinary user"
        )
    return ""


def _kernel() -> tuple[int, int]:
    """The running kernel's version, major and minor (0, 0 if unreadable)."""
    words = os.uname().release.split(".")
    try:
        return int(words[0]), int("".join(c for c in words[1] if c.isdigit()) or 0)
    except (IndexError, ValueError):
        return (0, 0)


def _base_options(tmp_mb: int) -> list[str]:
    options = [
        "--unshare-all",  # user, pid, net, ipc, uts, cgroup namespaces
        "--unshare-user",
        "--disable-userns",  # no nested namespace to gain capabilities back in
        "--die-with-parent",
        "--new-session",
        "--cap-drop",
        "ALL",
        "--hostname",
        HOSTNAME,
        "--proc",
        "/proc",
        "--dev",
        "/dev",
        "--size",
        str(tmp_mb << 20),
        "--tmpfs",
        "/tmp",
        "--size",  # POSIX shared memory (multiprocessing's semaphores), bounded as /tmp
        str(tmp_mb << 20),
        "--tmpfs",
        "/dev/shm",
        "--remount-ro",  # the rest of bwrap's /dev, an unbounded tmpfs: its nodes only
        "/dev",
    ]
    for path in SYSTEM_DIRS:
        if os.path.islink(path):
            options += ["--symlink", os.readlink(path), path]
        elif os.path.isdir(path):
            options += ["--ro-bind", path, path]
    for name in ETC_FILES:
        options += ["--ro-bind-try", f"/etc/{name}", f"/etc/{name}"]
    return options


def _binds(paths: list[str]) -> list[str]:
    """Read-only binds of arena's Python and sources, and of ``paths``."""
    shown = [*_binds_of_arena(), *paths]
    options: list[str] = []
    for path in _outermost(shown):
        options += ["--ro-bind", path, path]
    return options


def _outermost(paths: list[str]) -> list[str]:
    """The distinct existing folders among ``paths`` outside the system's, parents first
    (a folder inside another is bound with it).

    >>> _outermost(["/usr/lib/x", "/nonexistent/a", "/"])
    []
    """
    kept: list[str] = []
    for path in sorted({os.path.realpath(p) for p in paths if p and os.path.isdir(p)}):
        if any(path == s or path.startswith(s + "/") for s in SYSTEM_DIRS) or path == "/":
            continue
        if not any(path == k or path.startswith(k + "/") for k in kept):
            kept.append(path)
    return kept


def _python_dirs(executable: str) -> list[str]:
    """The folders a Python needs: its virtual environment and its installation."""
    found = shutil.which(executable) or executable
    here = Path(found).absolute()
    dirs = [str(here.parent.parent)] if (here.parent.parent / "pyvenv.cfg").is_file() else []
    real = Path(os.path.realpath(found))
    dirs.append(str(real.parent.parent))
    if real == Path(os.path.realpath(sys.executable)):
        dirs += [sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix]
    return dirs


def _arena_root() -> str:
    """The folder arena is imported from (``src`` in a checkout, site-packages installed)."""
    return str(Path(__file__).resolve().parents[2])


def _is_python(program: str) -> bool:
    """Whether ``program`` is a Python interpreter (by its name, as ``cmd:`` lines say it)."""
    return os.path.basename(program).startswith("python")


def _readable(argv: list[str]) -> list[str]:
    """Folders the program itself needs: a Python's installation, a program's folder."""
    program = shutil.which(argv[0]) or argv[0]
    if _is_python(program):
        return _python_dirs(program)
    return [os.path.dirname(os.path.realpath(program))]


def _program_folder(argv: list[str], cwd: str | None) -> tuple[list[str], str | None]:
    """``argv`` with its script's path made absolute, and the program's folder.

    >>> import tempfile; folder = tempfile.mkdtemp(); _ = open(f"{folder}/a.py", "w")
    >>> argv, where = _program_folder(["python", "-u", "a.py", "x"], folder)
    >>> where == folder, argv[2] == "a.py"
    (True, True)
    >>> argv, where = _program_folder(["python", f"{folder}/a.py"], None)
    >>> where == os.path.realpath(folder)
    True
    """
    if cwd is not None:
        return argv, os.path.realpath(cwd)
    for index, word in enumerate(argv):
        if word.startswith("-") or not os.path.isfile(word):
            continue
        path = os.path.realpath(word)
        if index == 0 and (_is_python(word) or any(_within(path, s) for s in SYSTEM_DIRS)):
            continue  # an interpreter or an installed program, not the agent's own
        changed = list(argv)
        changed[index] = path
        return changed, os.path.dirname(path)
    return argv, None


def _environment() -> list[str]:
    options = ["--clearenv"]
    kept = {name: os.environ[name] for name in (*KEPT_ENV, *THREAD_ENV) if name in os.environ}
    kept.update({k: v for k, v in os.environ.items() if k.startswith("LC_")})
    kept.setdefault("PATH", "/usr/local/bin:/usr/bin:/bin")
    kept.update(
        HOME="/tmp",
        TMPDIR="/tmp",
        USER="agent",
        PYTHONPATH=_arena_root(),
        PYTHONDONTWRITEBYTECODE="1",
        NUMBA_CACHE_DIR=NUMBA_DIR,
        MPLCONFIGDIR="/tmp/matplotlib",
        ARENA_SANDBOXED="1",
    )
    for name, value in kept.items():
        options += ["--setenv", name, value]
    return options


NUMBA_DIR = "/tmp/numba-cache"
"""The program's numba cache, in its private /tmp."""
NUMBA_COPY = "/var/cache/arena-numba"
"""Where arena's own numba cache is visible (read-only), linked to from :data:`NUMBA_DIR`."""


def _numba_cache() -> str | None:
    """Arena's numba cache (``NUMBA_CACHE_DIR``), when there is one: the sandbox gets a
    writable tree of links to it, so a game neither compiles the kernels again (10-30 s,
    a lost game) nor can change arena's own cache."""
    folder = os.environ.get("NUMBA_CACHE_DIR")
    if not folder or not os.path.isdir(folder) or not os.listdir(folder):
        return None
    return folder


FOLDER_COPY = "/var/lib/arena-agent"
"""Where the program's folder is visible (read-only) to be copied from."""
COPY_FAILED = 97
"""Exit status of a sandbox whose copy of the program's folder failed."""


def _within(path: str, folder: str) -> bool:
    """Whether ``path`` is ``folder`` or inside it (links resolved).

    >>> _within("/a/b/c", "/a/b"), _within("/a/bc", "/a/b"), _within("/a/b", "/a/b")
    (True, False, True)
    """
    path, folder = os.path.realpath(path), os.path.realpath(folder)
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def _copyable(folder: str, most: int, others: list[str]) -> int | None:
    """The size of ``folder`` if a private copy of it can be made: at most ``most`` bytes,
    and neither inside nor around another folder the sandbox shows (arena's, a Python's).

    >>> import tempfile; folder = tempfile.mkdtemp()
    >>> _ = open(f"{folder}/a.py", "w").write("x" * 10)
    >>> _copyable(folder, 100, []), _copyable(folder, 5, []), _copyable(folder, 100, [folder])
    (10, None, None)
    """
    real = os.path.realpath(folder)
    if any(_within(real, other) or _within(other, real) for other in others):
        return None
    size = 0
    for parent, _, files in os.walk(real):
        for name in files:
            with contextlib.suppress(OSError):
                size += os.lstat(os.path.join(parent, name)).st_size
            if size > most:
                return None
    return size


def _binds_of_arena() -> list[str]:
    return [*_python_dirs(sys.executable), _arena_root()]


def _prlimit() -> str:
    return shutil.which("prlimit") or "/usr/bin/prlimit"


_counter = itertools.count()
_made: set[str] = set()
"""The cgroups this process made and has not removed yet (removed at exit)."""


class _Cgroup:
    """A ``pids`` cgroup of one program: how root gets a process limit."""

    V1 = "/sys/fs/cgroup/pids"
    V2 = "/sys/fs/cgroup"

    def __init__(self, path: str) -> None:
        self.path = path
        self.procs = os.path.join(path, "cgroup.procs").encode()

    @classmethod
    @functools.lru_cache(maxsize=1)
    def base(cls) -> str | None:
        """Where this process may make pids cgroups (None: nowhere)."""
        for base in (cls.V1, cls.V2):
            if not os.path.isfile(os.path.join(base, "cgroup.procs")):
                continue
            if base == cls.V2:
                controls = Path(base, "cgroup.subtree_control")
                if not controls.is_file() or "pids" not in controls.read_text().split():
                    continue
            trial = os.path.join(base, f"arena-probe-{os.getpid()}")
            try:
                os.mkdir(trial)
                os.rmdir(trial)
            except OSError:
                continue
            cls.remove_stale(base)
            return base
        return None

    @staticmethod
    def remove_stale(base: str) -> None:
        """Remove the cgroups of arena processes that were killed before they could."""
        for name in os.listdir(base):
            words = name.split("-")
            if name.startswith("arena-sandbox-") and len(words) == 4 and words[2].isdigit():
                try:
                    os.kill(int(words[2]), 0)
                except ProcessLookupError:
                    with contextlib.suppress(OSError):  # not empty: left alone
                        os.rmdir(os.path.join(base, name))
                except OSError:
                    pass

    @classmethod
    def make(cls, processes: int) -> _Cgroup | None:
        base = cls.base()
        if base is None:
            return None
        path = os.path.join(base, f"arena-sandbox-{os.getpid()}-{next(_counter)}")
        try:
            os.mkdir(path)
            Path(path, "pids.max").write_text(str(processes))
        except OSError as exc:
            with contextlib.suppress(OSError):
                os.rmdir(path)
            raise SandboxUnavailable(
                f"--sandbox: cannot make the pids cgroup {path}: {exc}"
            ) from None
        _made.add(path)
        return cls(path)

    def join(self) -> None:
        """In the child before exec: move this process (and so all it forks) into the cgroup."""
        fd = os.open(self.procs, os.O_WRONLY)
        try:
            os.write(fd, b"0")  # 0: the writing process itself
        finally:
            os.close(fd)

    def members(self) -> list[int]:
        with contextlib.suppress(OSError):
            return [int(word) for word in Path(self.path, "cgroup.procs").read_text().split()]
        return []

    def remove(self, seconds: float = 2.0) -> None:
        """Kill what is left inside (processes dying with their namespace), then remove it."""
        deadline = time.monotonic() + seconds
        while True:
            for pid in self.members():
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
            try:
                os.rmdir(self.path)
            except FileNotFoundError:
                break
            except OSError:  # busy: members still exiting
                if time.monotonic() > deadline:
                    return  # tried again at exit
                time.sleep(0.01)
                continue
            break
        _made.discard(self.path)


@atexit.register
def _remove_left() -> None:
    for path in list(_made):
        _Cgroup(path).remove(seconds=0.5)
