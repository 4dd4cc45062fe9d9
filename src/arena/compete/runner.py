"""Running planned games: in this process, in worker processes, or as Ray tasks.

Workers only play: each receives a self-contained :class:`Job` and returns
the finished game's record as JSON. The coordinator alone writes the
database, so a crash of a worker can never corrupt it.

Tests: tests/compete/test_tournament.py
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import sys
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from multiprocessing import active_children, get_context
from typing import Any

from arena.agents import load_agent
from arena.agents.pyclass import PREFIX as PY
from arena.agents.pyclass import in_process, own_process
from arena.compete.match import MoveHook, play_game
from arena.compete.timecontrol import TimeControl
from arena.core.errors import ArenaError
from arena.core.install import extra_command
from arena.formats.record import GameRecord
from arena.games import load_game
from arena.remote.command import isolated
from arena.remote.external import PROGRAM_PREFIXES
from arena.remote.sandbox import Sandbox
from arena.search.threads import one_per_game


@dataclass(frozen=True)
class Job:
    game: str
    """The game's canonical spec (each worker builds its own game from it)."""
    game_id: str
    first: str
    second: str
    """The agents' names in tables (a repeated spec carries ``#2``)."""
    first_spec: str
    second_spec: str
    """What to load (names may add a seed when the agent takes one)."""
    round: int
    seed: int | None
    opening: tuple[int, ...]
    control: TimeControl
    grace: float
    max_plies: int | None
    isolate: bool = False
    """Run built-in and py: agents in their own processes (``arena serve``)."""
    in_process: bool = False
    """Run py: agents in this process (by default each has a process of its own)."""
    sandbox: Sandbox | None = None
    """Run every agent program (py: agents' processes included) in this sandbox."""


Watch = Callable[[Job], MoveHook]
"""Called as a game starts, in this process: the hook that sees each of its moves."""


def play_job(job: Job, on_move: MoveHook | None = None) -> str:
    """Play one planned game (in any process); the record as JSON."""
    game = load_game(job.game)
    specs = [job.first_spec, job.second_spec]
    record = play_game(
        game,
        [placed(spec, job.isolate, job.in_process, job.sandbox) for spec in specs],
        job.control,
        seed=job.seed,
        opening=job.opening,
        grace=job.grace,
        max_plies=job.max_plies,
        names=(job.first, job.second),
        on_move=on_move,
    )
    record.game_id = job.game_id
    return record.to_json()


def placed(
    spec: str, isolate: bool = False, in_process_py: bool = False, sandbox: Sandbox | None = None
) -> Any:
    """What the referee plays for ``spec``: a ``py:`` agent in a process of its own (so a
    ``choose`` that never returns loses on time), unless ``in_process_py``; with ``isolate``
    every built-in and ``py:`` agent runs under the ``cmd:`` rules (``arena serve``). With
    ``sandbox`` every program (``cmd:``, the course agents, ``py:``, isolated built-ins) runs
    in it; built-in agents in this process are arena's own code and stay here."""
    if prefixed_py(spec):
        if sandbox is None and in_process_py and not isolate:
            return in_process(spec)
        return own_process(spec, isolate, sandbox)
    text = isolated(spec) if isolate else spec
    if sandbox is None or not text.strip().lower().startswith(PROGRAM_PREFIXES):
        return text
    agent = load_agent(text)
    agent.sandbox = sandbox
    return agent


def prefixed_py(spec: str) -> bool:
    """Whether ``spec`` names a user's class in a file (``py:``)."""
    return spec.strip().lower().startswith(PY)


Stop = Callable[[], bool]


def run_serial(
    jobs: Iterable[Job], stop: Stop, watch: Watch | None = None
) -> Iterator[tuple[Job, GameRecord]]:
    """One game at a time in this process; ``watch`` sees every move as it is played."""
    for job in jobs:
        if stop():
            return
        yield job, GameRecord.from_json(play_job(job, watch(job) if watch else None))


def play_beside_others(job: Job) -> str:
    """:func:`play_job` in a worker that plays one of several games at once: its searches
    default to one thread (``threads=`` in a spec still says otherwise)."""
    one_per_game()
    return play_job(job)


def run_pool(jobs: Iterable[Job], workers: int, stop: Stop) -> Iterator[tuple[Job, GameRecord]]:
    """Keep ``workers`` games in flight; yield each as it finishes."""
    # spawn: a clean interpreter per worker, no locks inherited from this process's threads.
    pool = ProcessPoolExecutor(
        max_workers=workers, mp_context=get_context("spawn"), initializer=die_with_parent
    )

    def finished(running: list[Future[str]]) -> list[tuple[Future[str], str]]:
        done, _ = wait(running, return_when=FIRST_COMPLETED)
        return [(future, future.result()) for future in done]

    def abandon() -> None:
        # Interrupted (Ctrl-C, SIGTERM): games in flight are abandoned, not awaited. Their
        # workers are stopped now; each one's guardian then kills its agent programs.
        pool.shutdown(wait=False, cancel_futures=True)
        for child in active_children():
            child.terminate()

    try:
        yield from _in_flight(
            jobs,
            workers,
            submit=lambda job: pool.submit(play_beside_others, job),
            finished=finished,
            stop=stop,
            abandon=abandon,
        )
    finally:
        pool.shutdown(wait=True)


def die_with_parent() -> None:
    """In a worker: be killed when the coordinator dies, even by SIGKILL (Linux only)."""
    if not sys.platform.startswith("linux"):
        return
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        # The coordinator may have died before the call: then nobody will signal us.
        if os.getppid() == 1:
            os.kill(os.getpid(), signal.SIGKILL)


PR_SET_PDEATHSIG = 1


def run_ray(jobs: Iterable[Job], address: str, stop: Stop) -> Iterator[tuple[Job, GameRecord]]:
    """The same games as Ray tasks on a cluster (``auto``, ``local`` or ``ray://host:port``)."""
    try:
        import ray
    except ImportError:
        raise ArenaError(f"--ray needs Ray: {extra_command('ray')}") from None
    if not ray.is_initialized():
        connect_ray(ray, address)
    remote = ray.remote(play_beside_others)

    def finished(running: list[Any]) -> list[tuple[Any, str]]:
        done, _ = ray.wait(running, num_returns=1)
        return [(ref, ray.get(ref)) for ref in done]

    yield from _in_flight(
        jobs,
        max(1, int(ray.cluster_resources().get("CPU", 1))),
        submit=lambda job: remote.remote(job),
        finished=finished,
        stop=stop,
    )


def connect_ray(ray: Any, address: str) -> None:
    """Start Ray here (``local``) or join a cluster, with errors in arena's terms: Ray's own
    advice names a ``--address`` flag that arena does not have."""
    try:
        if address == "local":
            ray.init(include_dashboard=False, log_to_driver=False)
        else:
            ray.init(address=address, include_dashboard=False, log_to_driver=False)
    except ConnectionError:
        where = os.environ.get("RAY_ADDRESS") or address
        raise ArenaError(
            f"no Ray cluster at {where}: use --ray local to start one on this machine, "
            "or RAY_ADDRESS / --ray ray://HOST:PORT to join a running one"
        ) from None
    except ValueError as exc:  # e.g. ray:// without the ray[client] package
        raise ArenaError(f"--ray {address}: {exc}") from None


def _in_flight(
    jobs: Iterable[Job],
    capacity: int,
    submit: Callable[[Job], Any],
    finished: Callable[[list[Any]], list[tuple[Any, str]]],
    stop: Stop,
    abandon: Callable[[], None] | None = None,
) -> Iterator[tuple[Job, GameRecord]]:
    """Keep up to ``capacity`` jobs running (``submit`` starts one and returns its
    handle; ``finished`` waits for some handles and returns them with their JSON
    records) and yield each game as it ends; no new job starts once ``stop()``.
    Interrupted, it calls ``abandon()`` to give up the games in flight."""
    pending = iter(jobs)
    running: dict[Any, Job] = {}

    def refill() -> None:
        while len(running) < capacity and not stop():
            job = next(pending, None)
            if job is None:
                return
            running[submit(job)] = job

    refill()
    try:
        while running:
            for handle, text in finished(list(running)):
                yield running.pop(handle), GameRecord.from_json(text)
            refill()
    except BaseException:
        if abandon is not None:
            abandon()
        raise


def cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
