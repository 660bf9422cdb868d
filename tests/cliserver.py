"""`python -m orrery ARGS` run many times for the price of one interpreter start: a fork server.

Starting Python and importing Orrery costs about half a CPU second, more than most commands a test runs (a
bad spec refused, a file validated).  The server is one process that has imported the command once; for each
run it forks a child, which is a process of its own as `python -m orrery` would be: its own working directory,
environment and argv, stdin on /dev/null (as the server's), stdout and stderr into files, `orrery/__main__.py` run as the main
module, and the interpreter's own exit (SystemExit codes, atexit, an uncaught exception's traceback on stderr).
What a fresh interpreter would do differently is what happens before the first line of `__main__`: the
imports, already done, and anything that reads the environment while importing (nothing in Orrery does: the
environment is read when a command runs, and each child has the one it was given); and, at the end, the
modules' teardown, which a child skips (`_leave`: the threads joined, atexit run, the output flushed, as the
interpreter does before it).

A child may use `cpu_limit` CPU seconds (RLIMIT_CPU: the kernel stops it with SIGXCPU): CPU, not the wall clock,
so a loaded machine does not time out a run that is still working; `memory_limit` caps its address space
(RLIMIT_AS), and it never dumps core.  Used by tests/test_bad_inputs.py and tests/test_hostile_specs.py.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Outcome:
    """What one run of the orrery command produced (code None: stopped at its CPU limit); its CPU seconds and
    the signal that ended it, if one did."""

    code: int | None
    stdout: str
    stderr: str
    cpu: float = 0.0
    signal: int | None = None


class CliServer:
    """A fork server for `python -m orrery`; `run` is safe to call from several threads (runs go one at a time)."""

    def __init__(self, env: dict[str, str] | None = None) -> None:
        self.env = dict(os.environ if env is None else env)
        self._lock = threading.Lock()
        self._proc: subprocess.Popen | None = None

    def _start(self) -> subprocess.Popen:
        if self._proc is None or self._proc.poll() is not None:
            self._proc = subprocess.Popen([sys.executable, __file__], cwd=REPO, env=self.env, text=True,
                                          stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=None)
        return self._proc

    def run(self, args: list[str], cwd: Path = REPO, env: dict[str, str] | None = None,
            cpu_limit: int = 60, module: str = "orrery", memory_limit: int | None = None) -> Outcome:
        """Run `python -m orrery *args` (or another `module`) in a forked child and wait for it."""
        with self._lock, tempfile.TemporaryDirectory(prefix="orrery-cli-") as tmp:
            proc = self._start()
            request = {"args": args, "cwd": str(cwd), "env": self.env if env is None else env,
                       "out": f"{tmp}/out", "err": f"{tmp}/err", "cpu_limit": cpu_limit, "module": module,
                       "memory_limit": memory_limit}
            proc.stdin.write(json.dumps(request) + "\n")
            proc.stdin.flush()
            answer = proc.stdout.readline().split()
            status, cpu = int(answer[0]), float(answer[1])
            out, err = (Path(tmp, n).read_bytes().decode("utf-8", "replace") for n in ("out", "err"))
        if os.WIFSIGNALED(status):
            sig = os.WTERMSIG(status)
            if sig == signal.SIGXCPU:
                return Outcome(None, out, err + f"\n[stopped after {cpu_limit} CPU s]", cpu, sig)
            return Outcome(-sig, out, err, cpu, sig)
        return Outcome(os.WEXITSTATUS(status), out, err, cpu)

    def close(self) -> None:
        """Stop the server (it exits when its input closes)."""
        if self._proc is not None and self._proc.poll() is None:
            self._proc.stdin.close()
            self._proc.wait()
        self._proc = None


# ------------------------------------------------------------------ the server process


def _child(request: dict) -> None:
    """In the forked child: become `python -m orrery ARGS` and exit as that process would."""
    import resource
    import runpy

    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    resource.setrlimit(resource.RLIMIT_CPU, (request["cpu_limit"], request["cpu_limit"] + 1))
    if request.get("memory_limit"):
        resource.setrlimit(resource.RLIMIT_AS, (request["memory_limit"], request["memory_limit"]))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    for fd, name in ((1, "out"), (2, "err")):
        os.dup2(os.open(request[name], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), fd)
    sys.argv = [request["module"], *request["args"]]
    try:  # run as the main module
        runpy.run_module(request["module"], run_name="__main__", alter_sys=True)
        code = 0
    except SystemExit as exc:
        code = _exit_status(exc.code)
    except BaseException as exc:  # noqa: BLE001 - uncaught: the interpreter prints it and exits 1
        sys.excepthook(type(exc), exc, exc.__traceback__)
        code = 1
        if isinstance(exc, KeyboardInterrupt):  # (and dies of the signal)
            _leave(lambda: (signal.signal(signal.SIGINT, signal.SIG_DFL), os.kill(os.getpid(), signal.SIGINT)))
    _leave(lambda: os._exit(code))


def _exit_status(code: object) -> int:
    """The exit status the interpreter gives a SystemExit's code (a code not a number is printed)."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    print(code, file=sys.stderr)
    return 1


def _leave(end) -> None:
    """Leave as the interpreter would, without tearing down the modules: the non-daemon threads joined, the
    atexit functions run, the output flushed, then `end()`.  (The teardown would touch, and so copy, every object
    the child shares with the server: about a third of a child's CPU, and it has nothing to show.)"""
    import atexit
    import threading

    threading._shutdown()  # what the interpreter's exit does first
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:  # noqa: BLE001 - as at exit: a stream that cannot be flushed is let go
            pass
    end()
    os._exit(1)


# The modules the commands import when they run (cli/main.py imports each command's lazily, so that `orrery
# --help` starts quickly): imported once here rather than in every child (about 0.1 CPU s a child; the ones
# from the compiled flow's down, which a log's, a save's or a played game's cases import, about 2 CPU s over
# test_bad_inputs).  Importing one changes nothing a command does (no module reads the environment or the
# working directory on import).
PRELOAD = (
    "orrery.rulespec.loader", "orrery.rulespec.checker", "orrery.rulespec.schema", "orrery.rulespec.paths",
    "orrery.interpreter.cli.validate", "orrery.interpreter.cli.play", "orrery.interpreter.cli.table",
    "orrery.interpreter.cli.explain", "orrery.interpreter.cli.explain_format", "orrery.interpreter.cli.screen",
    "orrery.interpreter.compiler.codegen", "orrery.interpreter.compiler.flatmodule", "orrery.interpreter.files.log",
    "orrery.interpreter.files.save", "orrery.interpreter.files.scenarios", "orrery.interpreter.bots.simulate",
    "orrery.interpreter.compiler.flowgen", "orrery.interpreter.compiler.typedgen",
    "orrery.interpreter.compiler.flatcalls", "orrery.interpreter.engine.flowcompiled",
    "orrery.interpreter.engine.framescompiled", "orrery.interpreter.files.gamecache", "orrery.rulespec.textcheck",
    "orrery.games", "jsonschema", "pprint", "resource", "runpy",  # (jsonschema: a log's and a save's checks)
)


def _serve() -> None:
    """Import the command once, then fork a child per request line; answer each with the child's wait status
    and CPU seconds."""
    import gc
    import importlib

    from orrery.interpreter.cli.main import the_parser

    from orrery.rulespec.parser import parse_block, parse_expr

    the_parser()  # built once for every child (as its imports: nothing in it depends on the environment)
    parse_expr("0"), parse_block("pass")  # and the rule-text parsers (read from their shipped tables at first use)
    for name in PRELOAD:
        importlib.import_module(name)
    # The children share the server's objects copy-on-write; a child's garbage collection would walk (and so
    # write to, and copy) every one of them: frozen, the collector leaves them alone (half a child's CPU).
    gc.freeze()

    # requests and answers on fds of their own: fds 0 and 1 (and sys.stdin, sys.stdout) are the children's
    requests, answers = os.fdopen(os.dup(0), "r"), os.fdopen(os.dup(1), "w")
    os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
    os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
    for line in requests:
        request = json.loads(line)
        pid = os.fork()
        if pid == 0:
            requests.close()
            answers.close()
            _child(request)  # never returns: the child exits from inside the command
        _, status, usage = os.wait4(pid, 0)
        answers.write(f"{status} {usage.ru_utime + usage.ru_stime}\n")
        answers.flush()


if __name__ == "__main__":
    _serve()
