"""One external program on pipes, under the arena's rules.

:class:`AgentProcess` starts a command in its own session, so the program and
every child it forks share one process group that :meth:`AgentProcess.close`
kills as a whole: nothing outlives the game, and :mod:`arena.remote.reaper`
kills the group should arena itself be killed. Its stderr goes to a log file,
never into the protocol, and the last lines of that log explain a crash.
Memory and CPU limits are ``resource`` limits set in the child before it runs.

Reads never block past a deadline: :meth:`read_line` waits on the pipe with
``select`` and gives up at the deadline, and a line longer than
:data:`MAX_LINE` bytes is a flood, not an answer. Every way the program can
fail is an :class:`~arena.core.errors.AgentFailure` whose ``reason`` is the
referee's forfeit reason.

Tests: tests/remote/test_subprocess.py
"""

from __future__ import annotations

import contextlib
import logging
import os
import resource
import select
import shlex
import signal
import subprocess
import tempfile
import time
from pathlib import Path

from arena.core.errors import AgentFailure, SpecError
from arena.remote import reaper
from arena.remote.protocol import parse_forfeit
from arena.remote.sandbox import COPY_FAILED, Confined, Sandbox

logger = logging.getLogger(__name__)

MAX_LINE = 1 << 16
"""Bytes an answer line may have; a program that writes more without a newline floods."""

POLL = 0.1
"""Seconds between checks that a silent program is still running."""

STDERR_TAIL = 5
"""Lines of the program's stderr kept in the record when it fails."""


def log_dir() -> Path:
    """Where agents' stderr logs go (``$ARENA_LOGS`` or a folder in the temp dir)."""
    path = Path(os.environ.get("ARENA_LOGS") or Path(tempfile.gettempdir()) / "arena-logs")
    path.mkdir(parents=True, exist_ok=True)
    return path


def log_end(path: Path, size: int = 8192) -> str:
    """The last ``size`` bytes of a log file as text; empty when it cannot be read."""
    try:
        with open(path, "rb") as file:
            file.seek(0, os.SEEK_END)
            file.seek(max(0, file.tell() - size))
            return file.read().decode("utf-8", "replace")
    except OSError:
        return ""


def split_command(command: str) -> list[str]:
    """The argv of a command line (shell quoting rules, no shell)."""
    try:
        argv = shlex.split(command)
    except ValueError as exc:
        raise SpecError(f"command {command!r}: {exc}") from None
    if not argv:
        raise SpecError("empty command: expected e.g. cmd:python my_agent.py")
    return argv


class AgentProcess:
    """A running program: ``send`` lines to its stdin, ``read_line`` from its stdout."""

    def __init__(
        self,
        argv: list[str],
        *,
        label: str,
        memory_mb: int | None = None,
        cpu_seconds: int | None = None,
        cwd: str | None = None,
        sandbox: Sandbox | None = None,
    ) -> None:
        self.label = label
        self.memory_mb = memory_mb
        self.cpu_seconds = cpu_seconds
        self.confined: Confined | None = None
        """The program's sandbox (``--sandbox``): every launch goes through it."""
        if sandbox is not None:
            self.confined = sandbox.confine(argv, cwd)
            argv, cwd = self.confined.argv, None
        self.log_path = log_dir() / f"{_safe(label)}-{os.getpid()}-{time.monotonic_ns()}.log"
        self._buffer = b""
        self._guardian = reaper.channel()
        with open(self.log_path, "wb") as log:
            try:
                self.proc = subprocess.Popen(
                    argv,
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    stderr=log,
                    start_new_session=True,  # its own process group: killed as one
                    preexec_fn=self._limit,
                    close_fds=True,
                    cwd=cwd,
                )
            except OSError as exc:
                if self.confined is not None:
                    self.confined.release()
                raise SpecError(f"cannot start {argv[0]!r}: {exc.strerror or exc}") from None
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self._out = self.proc.stdout.fileno()
        os.set_blocking(self._out, False)

    def _limit(self) -> None:
        # Runs in the child between fork and exec. First the child has the guardian watch
        # its group (its pid: it leads a new session), so no moment passes unwatched in
        # which a SIGKILL of arena would leave the program behind.
        if self._guardian is not None:
            reaper.watch_from_child(self._guardian)
        if self.memory_mb:
            size = self.memory_mb << 20
            resource.setrlimit(resource.RLIMIT_AS, (size, size))
        if self.cpu_seconds:
            resource.setrlimit(resource.RLIMIT_CPU, (self.cpu_seconds, self.cpu_seconds + 1))
        if self.confined is not None:
            self.confined.in_child()

    @property
    def pid(self) -> int:
        return self.proc.pid

    def alive(self) -> bool:
        return self.proc.poll() is None

    def send(self, line: str) -> None:
        """Write one line; a program that is gone has crashed."""
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(line.encode() + b"\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, ValueError, OSError):
            raise self.crashed("it stopped reading its input") from None

    def read_line(self, timeout: float | None, what: str = "answer") -> str:
        """The next line of output within ``timeout`` seconds (None: no limit)."""
        deadline = None if timeout is None else time.perf_counter() + timeout
        while True:
            newline = self._buffer.find(b"\n")
            if newline >= 0:
                line, self._buffer = self._buffer[:newline], self._buffer[newline + 1 :]
                if len(line) > MAX_LINE:
                    raise self._flood()
                return line.decode("utf-8", "replace").rstrip("\r")
            if len(self._buffer) > MAX_LINE:
                raise self._flood()
            left = None if deadline is None else deadline - time.perf_counter()
            if left is not None and left <= 0:
                self.kill()
                raise AgentFailure("time", f"{self.label}: no {what} within {timeout:.3f} s")
            # Wake up now and then: a program that exited while a child it forked
            # holds the pipe open sends no end of file, but it is gone all the same.
            ready, _, _ = select.select([self._out], [], [], min(left or POLL, POLL))
            if not ready:
                if self.proc.poll() is not None:
                    raise self.crashed(f"it exited before its {what}")
                continue
            try:
                chunk = os.read(self._out, 1 << 16)
            except BlockingIOError:
                continue
            if not chunk:
                raise self.crashed(f"it exited before its {what}")
            self._buffer += chunk

    def end_input(self) -> None:
        """Close the program's stdin: a program reading its input sees the end of it."""
        with contextlib.suppress(OSError):
            self.proc.stdin.close()  # type: ignore[union-attr]

    def wait(self, seconds: float) -> bool:
        """Wait up to ``seconds`` for the program to exit; whether it did."""
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=seconds)
        return not self.alive()

    def _flood(self) -> AgentFailure:
        self.kill()
        return AgentFailure("illegal", f"{self.label} wrote a line longer than {MAX_LINE} bytes")

    def crashed(self, what: str) -> AgentFailure:
        """The failure of a program that exited (or stopped talking), with its stderr tail."""
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=0.5)
        self.kill()
        told = self.forfeit_told()
        if told is not None:  # it said why it lost (arena serve: an exception, a non-move)
            logger.debug(
                "%s: %s; its log %s:\n%s", self.label, told[1], self.log_path, self.log_text()
            )
            return AgentFailure(*told)
        code = self.proc.returncode
        if code is not None and code > 128 and self.confined is not None:
            code = 128 - code  # bubblewrap exits 128 + N when its program dies of signal N
        if code is None:
            status = "still running"
        elif code < 0:
            status = f"killed by {_signal_name(-code)}{self._limit_hint(-code)}"
        elif code == COPY_FAILED and self.confined is not None:
            status = "the sandbox could not copy its folder"
        else:
            status = f"exit status {code}"
        tail = self.stderr_tail()
        detail = f"{self.label} crashed: {what} ({status}{self._log_full()})"
        if tail:
            detail += f"; stderr: {tail}"
        return AgentFailure("crash", detail + f"; log {self.log_path}")

    def _log_full(self) -> str:
        if self.confined is None:
            return ""
        with contextlib.suppress(OSError):
            if self.log_path.stat().st_size >= self.confined.file_mb << 20:
                return (
                    f", its stderr log full at the sandbox's {self.confined.file_mb} MB file limit"
                )
        return ""

    def _limit_hint(self, signum: int) -> str:
        if signum == signal.SIGXCPU and self.cpu_seconds:
            return f", over its {self.cpu_seconds} s CPU limit"
        if signum == signal.SIGXFSZ and self.confined is not None:
            return f", a file (its stderr log?) over the sandbox's {self.confined.file_mb} MB"
        if signum == signal.SIGKILL and self.memory_mb:
            return f" (memory limit {self.memory_mb} MB)"
        return ""

    def forfeit_told(self) -> tuple[str, str] | None:
        """The reason and detail of the program's own forfeit line, if its stderr ends so."""
        last = self.stderr_tail(1)
        return parse_forfeit(last) if last else None

    def log_text(self, size: int = 8192) -> str:
        """The last ``size`` bytes of the program's stderr log."""
        return log_end(self.log_path, size)

    def stderr_tail(self, lines: int = STDERR_TAIL) -> str:
        """The last non-empty lines of the program's stderr, joined with `` | ``."""
        text = self.log_text()
        kept = [clip(line.strip()) for line in text.splitlines() if line.strip()][-lines:]
        return " | ".join(kept)

    def kill(self) -> None:
        """Kill the whole process group at once and reap the program."""
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=5)
        reaper.release(self.proc.pid)
        if self.confined is not None:
            self.confined.release()

    def close(self, goodbye: str | None = None, wait: float = 0.5) -> None:
        """Say ``goodbye`` (e.g. ``quit``), give the program ``wait`` seconds to leave,
        then kill whatever is left of its process group."""
        if goodbye is not None and self.alive():
            with contextlib.suppress(AgentFailure):
                self.send(goodbye)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proc.wait(timeout=wait)
        # The program may have exited and left children behind: kill the group anyway.
        self.kill()
        for stream in (self.proc.stdin, self.proc.stdout):
            with contextlib.suppress(OSError):
                stream.close()  # type: ignore[union-attr]


TAIL_LINE = 300
"""Characters of one stderr line kept in a crash's detail (a flood prints long lines)."""


def clip(line: str) -> str:
    """A line of at most :data:`TAIL_LINE` characters.

    >>> clip("y" * 1000)[295:]
    'yyyyy... (700 more characters)'
    """
    if len(line) <= TAIL_LINE:
        return line
    return f"{line[:TAIL_LINE]}... ({len(line) - TAIL_LINE} more characters)"


def _signal_name(signum: int) -> str:
    try:
        return signal.Signals(signum).name
    except ValueError:
        return f"signal {signum}"


def _safe(label: str) -> str:
    kept = "".join(c if c.isalnum() or c in "-_." else "_" for c in label)
    return kept[:40] or "agent"
