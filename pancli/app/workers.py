"""Forked worker processes that do tasks for the main process, results taken in task order.

Why not :class:`multiprocessing.Pool`: its workers share locks on one task queue and one result
queue, so a worker killed while it holds one (an idle worker holds the task queue's lock while it
waits) leaves the pool blocked for good, and ``Pool.terminate`` waits on that lock forever
(``pan replay --jobs 2`` would hang when a worker is killed near the end of a run). Here each
worker has a pipe of its own each way and nothing else is shared:

- a worker is given a task only when it is idle (so neither side ever waits on a full pipe);
- a worker that dies (killed, out of memory) shows as the end of its result pipe: its task is
  done in the main process instead, and the run goes on with the workers left (with none, the
  main process does the rest): the same results in the same order, whatever dies when;
- the workers die with the main process: on Linux the kernel kills them when it dies
  (``PR_SET_PDEATHSIG``), elsewhere an idle worker ends at the end of its task pipe and a busy one
  when it cannot send its result; and when the main process stops (at the end, on an error or a
  signal) it kills and reaps them;
- a worker never writes to the standard streams: whatever goes wrong in it, it ends silently
  and the main process does its task (an error that is the task's own then shows there, once);
- a result comes back as the typed value it is, not as text: the worker encodes it with msgspec's
  MessagePack encoder and the main process decodes it as ``result_type`` (a frozen Struct, or
  what msgspec decodes: a union of Structs by its tag, a card by its index, a notation error by
  its fields), the same value the task gives in the main process. Pickling Structs is several
  times slower than either (benchmarks/README.md, ``bench_json.py --jobs``): only a result holding
  text MessagePack cannot hold is pickled (:data:`_PICKLED`).

Nothing here writes to a terminal: what is worth saying (fewer workers than asked, a
:class:`FewerWorkers`) goes to ``note``, which the command line gives and words through render/.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import signal
import sys
from collections.abc import Callable, Iterable, Iterator
from multiprocessing.connection import Connection, Pipe, wait
from typing import Any, Final, Generic, TypeVar

import msgspec

from pancli.cards import ALL_CARDS, Card
from pancli.files import signals_held
from pancli.notation.errors import NotationError
from pancli.values import Value

T = TypeVar("T")
R = TypeVar("R")

_END: Any = object()


class _Worker:
    __slots__ = ("pid", "results", "seq", "task", "tasks")

    def __init__(self, pid: int, tasks: Connection, results: Connection) -> None:
        self.pid = pid
        self.tasks = tasks
        self.results = results
        self.seq = -1
        """The number of the task it holds (-1: idle)."""
        self.task: Any = None


class FewerWorkers(Value):
    """Fewer worker processes than ``--jobs`` asked (``asked``) could be made: ``made`` were (0: the
    work goes on in pan's own process); ``why`` the system's reason the next one could not be."""

    asked: int
    made: int
    why: str


class Workers(Generic[T, R]):
    """``jobs`` forked processes doing ``work(task)``; use as a context manager (the workers are
    killed and reaped when it ends) and :meth:`results` to hand out tasks and take results.

    >>> said: list[FewerWorkers] = []
    >>> with Workers(2, abs, int, note=said.append) as pool:
    ...     [r for _, r in pool.results(range(-3, 3), abs)]
    [3, 2, 1, 0, 1, 2]
    """

    def __init__(
        self, jobs: int, work: Callable[[T], R], result_type: type[R], *, note: Callable[[FewerWorkers], None]
    ) -> None:
        self.work = work
        self.jobs = jobs
        self.note = note
        """Told when fewer workers than ``jobs`` could be made (:class:`FewerWorkers`)."""
        self._decoder = msgspec.msgpack.Decoder(result_type, dec_hook=_decoded)
        """The results' decoder."""
        self._workers: list[_Worker] = []

    def __enter__(self) -> Workers[T, R]:
        try:
            for made in range(self.jobs):
                try:
                    self._start()
                except OSError as exc:  # no descriptor or process left (ulimit -n, ulimit -u): fewer
                    self._fewer(made, exc)
                    break
        except BaseException:
            self.close()
            raise
        return self

    def _fewer(self, made: int, exc: OSError) -> None:
        self.note(FewerWorkers(self.jobs, made, exc.strerror or type(exc).__name__))

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _start(self) -> None:
        parent = os.getpid()
        tasks_in, tasks_out = Pipe(duplex=False)
        try:
            results_in, results_out = Pipe(duplex=False)
        except OSError:
            tasks_in.close()
            tasks_out.close()
            raise
        # what the standard streams hold unwritten is copied into the worker and never written
        # there: a worker ends with os._exit, which flushes nothing. The stopping signals are held
        # until the worker is listed: one that came in between left it unended and unreaped
        with signals_held() as mask:
            try:
                pid = os.fork()
            except OSError:
                for conn in (tasks_in, tasks_out, results_in, results_out):
                    conn.close()
                raise
            if pid == 0:  # pragma: no cover - the worker (measured through the main process)
                others = [c for w in self._workers for c in (w.tasks, w.results)]
                _serve(parent, mask, tasks_in, results_out, [tasks_out, results_in, *others], self.work)
            self._workers.append(_Worker(pid, tasks_out, results_in))
            tasks_in.close()
            results_out.close()

    def results(self, tasks: Iterable[T], here: Callable[[T], R]) -> Iterator[tuple[T, R]]:
        """Each task with its result, in the order of ``tasks`` (read as workers are free: at most
        one task a worker is out, and as many results held); ``here(task)`` does in this process
        a task whose worker died."""
        source = iter(tasks)
        given = 0  # tasks taken from the source
        taken = 0  # results handed back
        done: dict[int, tuple[T, R]] = {}
        exhausted = False
        while True:
            for w in list(self._workers):
                if w.seq < 0 and not exhausted:
                    task = next(source, _END)
                    if task is _END:
                        exhausted = True
                        break
                    w.seq, w.task = given, task
                    given += 1
                    try:
                        w.tasks.send(task)
                    except (OSError, ValueError):  # it died (a broken pipe): the task is done here
                        self._lost(w, done, here)
            while taken in done:
                yield done.pop(taken)
                taken += 1
            busy = {w.results: w for w in self._workers if w.seq >= 0}
            if not busy:
                if exhausted:
                    return
                if not self._workers:  # every worker died: the rest is done here
                    task = next(source, _END)
                    if task is _END:
                        exhausted = True
                    else:
                        done[given] = (task, here(task))
                        given += 1
                continue
            for conn in wait(list(busy)):
                w = busy[conn]  # type: ignore[index]
                try:
                    result = self._decode(w.results.recv_bytes())
                except Exception:  # the end of its pipe, or half a result: it died (the task is done here)
                    self._lost(w, done, here)
                    continue
                done[w.seq] = (w.task, result)
                w.seq, w.task = -1, None

    def _decode(self, data: bytes) -> R:
        """A worker's result from its message (:func:`_message`)."""
        view = memoryview(data)[1:]
        if data[:1] == _PICKLED:
            return pickle.loads(view)  # type: ignore[no-any-return]
        return self._decoder.decode(view)

    def _lost(self, w: _Worker, done: dict[int, tuple[T, R]], here: Callable[[T], R]) -> None:
        """A worker died: reap it, and do its task here."""
        self._workers.remove(w)
        _end(w)
        done[w.seq] = (w.task, here(w.task))

    def close(self) -> None:
        """Kill and reap every worker (a worker holds nothing the run still needs)."""
        while self._workers:
            _end(self._workers.pop())


_PACKED: Final = b"m"
_PICKLED: Final = b"p"
"""The first byte of a result's message: MessagePack (msgspec), or pickle for a result holding
text MessagePack cannot hold (a file name with bytes that are not UTF-8, read as lone
surrogates)."""


def _encoded(obj: Any) -> Any:
    """What msgspec's encoder writes for a value it does not know: a text of a class of its own
    (a rule id, a long line) as its text, a card as its index, a notation error (a malformed
    hand's) as its fields."""
    if isinstance(obj, str):
        return str(obj)
    if isinstance(obj, Card):
        return obj.index
    if isinstance(obj, NotationError):
        return (obj.code, obj.message, obj.col, obj.line)
    raise NotImplementedError(f"{type(obj).__name__} is not sent by a worker")


def _decoded(kind: Any, obj: Any) -> Any:
    """A value of a class msgspec does not know, built from what :func:`_encoded` wrote."""
    if kind is Card:
        return ALL_CARDS[obj]
    if issubclass(kind, NotationError):
        return kind(*obj)
    return kind(obj)


def _message(encoder: msgspec.msgpack.Encoder, result: Any) -> bytearray:
    """A result as a worker sends it: a byte that says how, then the result."""
    data = bytearray(_PACKED)
    try:
        encoder.encode_into(result, data, 1)
        return data
    except UnicodeEncodeError:
        pass
    data = bytearray(_PICKLED)
    data += pickle.dumps(result, pickle.HIGHEST_PROTOCOL)
    return data


def _end(w: _Worker) -> None:
    for conn in (w.tasks, w.results):
        with contextlib.suppress(OSError):
            conn.close()
    with contextlib.suppress(OSError):
        os.kill(w.pid, signal.SIGKILL)
    with contextlib.suppress(ChildProcessError):
        os.waitpid(w.pid, 0)


def _serve(  # pragma: no cover - runs in the worker
    parent: int,
    mask: set[int | signal.Signals] | None,
    tasks: Connection,
    results: Connection,
    others: list[Connection],
    work: Callable[[Any], Any],
) -> None:
    """A worker's life: do each task it is sent until its task pipe ends; never returns."""
    status = 0
    try:
        # Ctrl-C reaches the whole process group: the main process answers it and ends its
        # workers; a hangup or a kill ends a worker at once, without a word, unless the main
        # process was told to ignore it (nohup): then the worker ignores it too.
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        for signum in (signal.SIGTERM, getattr(signal, "SIGHUP", None)):
            if signum is not None and signal.getsignal(signum) is not signal.SIG_IGN:
                signal.signal(signum, signal.SIG_DFL)
        if mask is not None:  # the main process's, held while it forked: the worker's own handlers now set
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        for conn in others:  # the main process's ends: the pipes end when it does
            conn.close()
        _die_with(parent)
        encoder = msgspec.msgpack.Encoder(enc_hook=_encoded)
        while True:
            try:
                task = tasks.recv()
            except EOFError:
                break
            results.send_bytes(_message(encoder, work(task)))
    except BaseException:
        status = 1
    finally:
        os._exit(status)


def _die_with(parent: int) -> None:  # pragma: no cover - runs in the worker
    """Ask the kernel to kill this worker when the main process dies (Linux), then make sure it
    had not died already."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(Exception):
            import ctypes  # Linux only, and only in a worker: asks to die with its parent

            pr_set_pdeathsig = 1
            ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:
        os._exit(0)
