"""duipai's recorder of a Python generator's random choices.

duipai puts this file's folder first on PYTHONPATH only when it records or replays a
generator's choices (DUIPAI_CHOICES=record or replay); Python imports it at start-up as
`sitecustomize`, before the generator. It wraps the three methods of `random.Random` every
draw passes through (`_randbelow`, which `randint`, `randrange`, `choice`, `shuffle` and
`sample` use; `getrandbits`; `random`, which `uniform`, `choices` and the distributions use),
for the module's functions and every `random.Random` alike.

- record: each draw is the one Python makes, so the generator prints exactly what it prints
  without duipai; the draws are written to DUIPAI_CHOICES_OUT, one a line:
  `LABEL MAX VALUE` (LABEL tells the generator's lines apart, VALUE lies in 0..=MAX).
- replay: the VALUEs of DUIPAI_CHOICES_IN are served in order instead, a value above the
  draw's MAX or past the end as 0 (the smallest); what was served is written as when
  recording. More than DUIPAI_CHOICES_LIMIT draws (when set) end the run at once, exit 86.

A run that ends cleanly (its script done, no uncaught exception, no exit asked for, its
streams flushed) ends at once after the choices are written, with status 0, rather than take
the interpreter apart: in a run forked from a warm interpreter, that teardown touches every
page of the interpreter's objects and costs as much as the generator's own work. Any other
end is left to Python as it is.
"""

import os
import sys


def _install(mode):
    import atexit
    import random as _random

    out_path = os.environ.get("DUIPAI_CHOICES_OUT", "")
    values = None
    limit = 0
    if mode == "replay":
        with open(os.environ.get("DUIPAI_CHOICES_IN", ""), "rb") as given:
            values = [int(word) for word in given.read().split()]
        limit = int(os.environ.get("DUIPAI_CHOICES_LIMIT", "0") or 0)
    served = []
    labels = {}
    # The files whose frames are not the generator's: random's and this one, as their code
    # names them.
    skipped = {_random.Random.randrange.__code__.co_filename, _install.__code__.co_filename}
    getframe = sys._getframe

    def label():
        # The generator's line that drew and the line that called it: draws from one line of
        # one loop share a label, a helper function's draws differ by caller.
        frame = getframe(2)
        while frame is not None and frame.f_code.co_filename in skipped:
            frame = frame.f_back
        if frame is None:
            return 0
        caller = frame.f_back
        key = (frame.f_code, frame.f_lineno, caller and caller.f_code, caller and caller.f_lineno)
        found = labels.get(key)
        if found is None:
            found = labels[key] = len(labels)
        return found

    recording = values is None

    def served_next(maximum):
        # The next given value, 0 past the end or above the draw's maximum.
        at = len(served)
        if limit and at >= limit:
            sys.stderr.write("duipai-choices: overrun\n")
            sys.stderr.flush()
            os._exit(86)
        value = values[at] if at < len(values) else 0
        return value if value <= maximum else 0

    def draw(maximum, value):
        # `value` as drawn when recording; the given one when replaying.
        if not recording:
            value = served_next(maximum)
        served.append((label(), maximum, value))
        return value

    exits = _watch_exits()

    def write():
        with open(out_path, "w") as out:
            out.write("".join("%d %d %d\n" % choice for choice in served))
        # Registered first, this runs last of the exit handlers: nothing of the script's is
        # left to run.
        if not exits and _flushed():
            os._exit(0)

    atexit.register(write)

    cls = _random.Random
    base = cls.__mro__[1]
    c_getrandbits = base.getrandbits
    c_random = base.random
    py_randbelow = cls._randbelow
    inside = [False]

    def unrecorded(call, *args):
        inside[0] = True
        try:
            return call(*args)
        finally:
            inside[0] = False

    def below(self, n):
        # What Python's own _randbelow returns, without recording its getrandbits: for a
        # plain Random, its steps spelled out (the same draws, fewer calls).
        if type(self) is not cls:
            return unrecorded(py_randbelow, self, n)
        k = n.bit_length()
        r = c_getrandbits(self, k)
        while r >= n:
            r = c_getrandbits(self, k)
        return r

    def _randbelow(self, n):
        if inside[0] or not 0 < n <= 1 << 64:
            return py_randbelow(self, n)
        return draw(n - 1, below(self, n) if recording else 0)

    def getrandbits(self, k):
        if inside[0] or k < 0:
            return c_getrandbits(self, k)
        whole = c_getrandbits(self, k) if recording else 0
        if k <= 64:
            return draw((1 << k) - 1, whole)
        # Wider draws are pieces of 64 bits, the lowest first.
        result = 0
        shift = 0
        while shift < k:
            width = min(64, k - shift)
            mask = (1 << width) - 1
            result |= draw(mask, (whole >> shift) & mask) << shift
            shift += width
        return result

    # random() is a multiple of 2**-53: its 53 bits are the choice, exactly.
    unit = 9007199254740992.0

    def random(self):
        if inside[0]:
            return c_random(self)
        return draw((1 << 53) - 1, int(c_random(self) * unit) if recording else 0) / unit

    cls._randbelow = _randbelow
    cls.getrandbits = getrandbits
    cls.random = random
    # The module's functions are methods of one hidden instance, bound when `random` was
    # imported: those of C methods are bound again, to the wrappers.
    _random.random = _random._inst.random
    _random.getrandbits = _random._inst.getrandbits


def _watch_exits():
    """A list that gets an item whenever the script asks to exit through `sys.exit`, `exit()`
    or `quit()`, whatever status it asks for: only a run that never did may end at once with
    status 0. (A SystemExit the script raises itself is told by its source, at the end; an
    uncaught exception by `sys.last_value`, which Python sets as it prints one.)"""
    import builtins

    exits = []

    def watched(call):
        def asked(*args, **kwargs):
            exits.append(True)
            return call(*args, **kwargs)

        return asked

    sys.exit = watched(sys.exit)
    for name in ("exit", "quit"):
        if hasattr(builtins, name):
            setattr(builtins, name, watched(getattr(builtins, name)))
    return exits


def _raises_exit():
    """Whether the script, or a module of its own beside it, names SystemExit (it may raise
    it with any status)."""
    script = os.path.abspath(sys.argv[0]) if sys.argv and sys.argv[0] else ""
    folder = os.path.dirname(script) + os.sep
    files = {script}
    for module in list(sys.modules.values()):
        path = getattr(module, "__file__", None)
        if isinstance(path, str) and os.path.abspath(path).startswith(folder):
            files.add(os.path.abspath(path))
    for path in files:
        try:
            with open(path, "rb") as source:
                if b"SystemExit" in source.read():
                    return True
        except OSError:
            return True
    return False


def _flushed():
    """Whether the run may end at once: it raised nothing uncaught, and every stream it
    opened (its standard ones, and any file object it left open) is flushed."""
    if any(hasattr(sys, name) for name in ("last_value", "last_exc", "last_type")):
        return False
    if _raises_exit():
        return False
    import gc
    import io

    # The run's own objects: a warm interpreter's were frozen before the fork.
    streams = [o for o in gc.get_objects() if isinstance(o, io.IOBase)]
    streams += [sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__]
    try:
        for stream in streams:
            if stream is not None and not stream.closed and stream.writable():
                stream.flush()
    except BaseException:
        return False
    return True


def _chain():
    # The sitecustomize this one shadows, if the installation has one.
    import importlib.machinery
    import importlib.util

    here = os.path.dirname(os.path.abspath(__file__))
    path = [p for p in sys.path if os.path.abspath(p or ".") != here]
    spec = importlib.machinery.PathFinder.find_spec("sitecustomize", path)
    if spec is not None and spec.loader is not None:
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)


_mode = os.environ.get("DUIPAI_CHOICES")
if _mode in ("record", "replay"):
    _install(_mode)
_chain()
