"""duipai's warm interpreter for one Python helper script (src/run/warm/mod.rs).

duipai starts `python3 SCRIPT` as a fresh run would, but with this file's folder on
PYTHONPATH and DUIPAI_WARM=3 in its environment, and its socket as descriptor 3. Python then
imports `sitecustomize` from here while it starts, after the site's `.pth` files and before
the script: there, `serve` answers duipai's requests, one per run of the script. For each, it
forks a child that forks the run's process and exits at once, so that the run's process is
handed to duipai (the child subreaper above it) and is duipai's child, as a fresh start's
would be. The run's process sets itself up as duipai's clone child does before `exec`
(cgroup, process group, terminal, rlimits, streams, folder), reports its pid, takes the
run's argv, environment and standard streams, forgets the modules the server imported, and
returns: the interpreter then goes on starting as any fresh `python3 SCRIPT ARGS` does, puts
the script's folder first in sys.path and runs the script as `__main__`, with no frame of
this file below it.
"""

import sys

# What a fresh start has imported at this point: anything the server imports beyond it is
# forgotten again in each run, so that the script imports it itself, from its own sys.path
# (a socket.py of its own beside it, say).
_FRESH = frozenset(sys.modules) - {__name__}

import gc  # noqa: E402
import os  # noqa: E402
import resource  # noqa: E402
import socket  # noqa: E402

_HERE = os.path.dirname(os.path.abspath(__file__))


def serve():
    """In the server: answers requests until duipai closes the socket, then exits. Returns
    only in a run's process, set up: where the site's own sitecustomize is, if it has one."""
    real = _leave_no_trace()
    sock = socket.socket(fileno=3)
    why = _unusable()
    sock.send(b"no " + why.encode() if why else b"ok")
    if why:
        os._exit(0)
    kept = _inherited()
    # A run's interpreter collects its garbage as it exits (and as it goes), reading every
    # object it tracks: each page of them the server holds would be copied into the run.
    # Frozen, they are left out (a run's CPU time 25 -> 12 ms here).
    gc.freeze()
    while True:
        try:
            message, fds, _, _ = socket.recv_fds(sock, 1 << 20, 16)
        except OSError:
            os._exit(0)
        if not message:
            os._exit(0)
        try:
            request = _Request(message, fds)
        except ValueError:
            for fd in fds:
                os.close(fd)
            sock.send(b"bad")
            continue
        if _launch(sock, request, kept):
            _become(request)
            return real


def _leave_no_trace():
    """Takes this folder out of sys.path and the import caches (PYTHONPATH put it first; the
    run's environment comes with the request), and finds the site's own sitecustomize, which
    this folder's stands in for; returns where it is, or None. It is not run here: each run
    runs it, with the run's environment, as a fresh start does, so that what it does (an
    environment variable set, random.seed called) is the run's."""
    while _HERE in sys.path:
        sys.path.remove(_HERE)
    sys.path_importer_cache.pop(_HERE, None)
    from importlib.machinery import PathFinder

    return PathFinder.find_spec("sitecustomize", sys.path)


def _unusable():
    """Why a warm start cannot stand for a fresh one of the script here, or None."""
    if sys.implementation.name != "cpython" or sys.version_info < (3, 9):
        return "it is not CPython 3.9 or newer"
    if not hasattr(os, "fork") or not hasattr(socket, "recv_fds"):
        return "this Python cannot fork or receive descriptors"
    if not sys.argv or not sys.argv[0]:
        return "it was started without a script"
    try:
        mode = os.stat(sys.argv[0]).st_mode
    except OSError as e:
        return "its script cannot be read: %s" % e.strerror
    if (mode & 0o170000) != 0o100000:
        return "its script is not a file"
    if None in (sys.__stdin__, sys.__stdout__, sys.__stderr__):
        return "it started without standard streams"
    return None


def _inherited():
    """The descriptors above 3 this interpreter was started with (3 is duipai's socket): a
    run's process keeps them, as a fresh start would."""
    fds = set()
    for name in os.listdir("/proc/self/fd"):
        fd = int(name)
        if fd > 3:
            try:
                os.fstat(fd)
            except OSError:
                continue  # the listing's own descriptor, closed by now
            fds.add(fd)
    return fds


class _Request:
    """A run, as duipai sends it (fields separated by NUL bytes): `run`, flags (`t`: give up
    the terminal, `o`: first for the OOM killer), folder, argv, environment, rlimits (`kind
    soft hard required`), and how many cgroups to join; then the descriptors: stdin, stdout,
    stderr, the pipe to wait on for the word to go, and the cgroups' `cgroup.procs` files."""

    def __init__(self, message, fds):
        fields = message.split(b"\0")
        at = 0

        def take(n=1):
            nonlocal at
            got = fields[at : at + n]
            if len(got) != n:
                raise ValueError("a short request")
            at += n
            return got

        if take()[0] != b"run":
            raise ValueError("not a request")
        flags = take()[0]
        self.no_terminal = b"t" in flags
        self.oom_first = b"o" in flags
        self.cwd = take()[0]
        self.argv = take(int(take()[0]))
        self.env = take(int(take()[0]))
        self.rlimits = []
        for _ in range(int(take()[0])):
            kind, soft, hard, required = (int(x) for x in take()[0].split())
            self.rlimits.append((kind, soft, hard, bool(required)))
        cgroups = int(take()[0])
        if len(fds) != 4 + cgroups or len(self.argv) < 2:
            raise ValueError("the descriptors do not match the request")
        self.fds = fds
        self.streams = fds[:3]
        self.go = fds[3]
        self.cgroups = fds[4:]


def _launch(sock, request, kept):
    """Forks the run's process through a child that exits at once (so that duipai becomes
    its parent) and replies with its pid once it is set up. True in the run's process."""
    read, write = os.pipe()
    try:
        middle = os.fork()
    except OSError as e:
        middle = -1
        os.write(write, b"fail fork %d" % (e.errno or 0))
    if middle == 0:
        try:
            if os.fork() != 0:
                os._exit(0)
            sock.detach()
            os.close(read)
            _start(request, write, kept)
        except BaseException:
            os._exit(127)
        return True
    os.close(write)
    for fd in request.fds:
        os.close(fd)
    if middle > 0:
        os.waitpid(middle, 0)
    reply = b""
    while True:
        chunk = os.read(read, 256)
        if not chunk:
            break
        reply += chunk
    os.close(read)
    sock.send(reply or b"fail fork 0")
    return False


def _start(request, status, kept):
    """In the run's process: sets it up, reports through `status` (its pid, or the stage
    that failed), waits for duipai's word to go (it ends at once if duipai gave up on it),
    and keeps no descriptor of the server's."""
    failed = _set_up(request)
    if failed is not None:
        os.write(status, b"fail %s %d %d" % (failed[0].encode(), failed[1], os.getpid()))
        os._exit(127)
    os.write(status, b"ok %d" % os.getpid())
    os.close(status)
    if os.read(request.go, 1) != b"g":
        os._exit(0)
    for name in os.listdir("/proc/self/fd"):
        fd = int(name)
        if fd > 2 and fd not in kept:
            try:
                os.close(fd)
            except OSError:
                pass


def _set_up(request):
    """What duipai's clone child does before `exec`, in its order. Returns the stage that
    failed and its errno, or None."""
    stage = "cgroup"
    try:
        for fd in request.cgroups:
            os.write(fd, b"0")
        stage = "process-group"
        os.setpgid(0, 0)
        if request.no_terminal:
            _give_up_terminal()
        if request.oom_first:
            try:
                with open("/proc/self/oom_score_adj", "w") as f:
                    f.write("1000")
            except OSError:
                pass
        stage = "rlimit"
        for kind, soft, hard, required in request.rlimits:
            try:
                resource.setrlimit(kind, (soft, hard))
            except (OSError, ValueError) as e:
                if required:
                    raise OSError(getattr(e, "errno", None) or 22, str(e))
        stage = "streams"
        for target, fd in enumerate(request.streams):
            os.dup2(fd, target)
        stage = "directory"
        os.chdir(request.cwd)
    except OSError as e:
        return stage, e.errno or 0
    return None


def _give_up_terminal():
    try:
        fd = os.open("/dev/tty", os.O_RDWR | os.O_NOCTTY | os.O_CLOEXEC)
    except OSError:
        return
    try:
        import fcntl
        import termios

        fcntl.ioctl(fd, termios.TIOCNOTTY)
    except OSError:
        pass
    finally:
        os.close(fd)


def _become(request):
    """Makes this process what `python3 SCRIPT ARGS` is at this point of its start: the
    run's argv and environment, standard streams on the run's descriptors, and none of the
    server's own modules."""
    os.environ.clear()
    for entry in request.env:
        name, sep, value = entry.partition(b"=")
        if sep and name:
            os.environb[name] = value
    argv = [os.fsdecode(a) for a in request.argv]
    sys.argv = argv[1:]
    if hasattr(sys, "orig_argv"):
        sys.orig_argv = argv
    streams = [
        ("stdin", 0, False, "<stdin>", sys.__stdin__.errors),
        ("stdout", 1, True, "<stdout>", sys.__stdout__.errors),
        ("stderr", 2, True, "<stderr>", "backslashreplace"),
    ]
    for stream, fd, write, name, errors in streams:
        template = getattr(sys, "__%s__" % stream)
        made = _stdio(fd, write, name, template, errors)
        setattr(sys, "__%s__" % stream, made)
        setattr(sys, stream, made)
    for module in [m for m in sys.modules if m not in _FRESH]:
        del sys.modules[module]


def _stdio(fd, write, name, template, errors):
    """A standard stream as a fresh start makes it (Python/pylifecycle.c, create_stdio),
    with the encoding, errors and buffering this interpreter started with, and line buffering
    as the new descriptor calls for."""
    import io

    try:
        os.fstat(fd)
    except OSError:
        return None
    buffered = not template.write_through
    buffering = 0 if (write and not buffered) else -1
    buf = io.open(fd, "wb" if write else "rb", buffering, closefd=False)
    raw = buf.raw if buffering else buf
    raw.name = name
    line_buffering = buffered and (raw.isatty() or fd == 2)
    stream = io.TextIOWrapper(
        buf, template.encoding, errors, "\n", line_buffering, not buffered
    )
    stream.mode = "w" if write else "r"
    return stream
