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
    skipped = ("random", __name__)

    def label():
        # The generator's line that drew and the line that called it: draws from one line of
        # one loop share a label, a helper function's draws differ by caller.
        frame = sys._getframe(1)
        sites = []
        while frame is not None and len(sites) < 2:
            if frame.f_globals.get("__name__") not in skipped:
                sites.append((id(frame.f_code), frame.f_lineno))
            frame = frame.f_back
        return labels.setdefault(tuple(sites), len(labels))

    def draw(maximum, raw):
        at = len(served)
        if values is None:
            value = raw()
        else:
            if limit and at >= limit:
                sys.stderr.write("duipai-choices: overrun\n")
                sys.stderr.flush()
                os._exit(86)
            value = values[at] if at < len(values) else 0
            if value > maximum:
                value = 0
        served.append((label(), maximum, value))
        return value

    def write():
        with open(out_path, "w") as out:
            out.write("".join("%d %d %d\n" % choice for choice in served))

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

    def _randbelow(self, n):
        if inside[0] or not 0 < n <= 1 << 64:
            return py_randbelow(self, n)
        return draw(n - 1, lambda: unrecorded(py_randbelow, self, n))

    def getrandbits(self, k):
        if inside[0] or k < 0:
            return c_getrandbits(self, k)
        if k <= 64:
            return draw((1 << k) - 1, lambda: c_getrandbits(self, k))
        # Wider draws are pieces of 64 bits, the lowest first.
        whole = c_getrandbits(self, k) if values is None else 0
        result = 0
        shift = 0
        while shift < k:
            width = min(64, k - shift)
            mask = (1 << width) - 1
            piece = draw(mask, lambda: (whole >> shift) & mask)
            result |= piece << shift
            shift += width
        return result

    def random(self):
        if inside[0]:
            return c_random(self)
        # random() is a multiple of 2**-53: its 53 bits are the choice, exactly.
        unit = 9007199254740992.0
        return draw((1 << 53) - 1, lambda: int(c_random(self) * unit)) / unit

    cls._randbelow = _randbelow
    cls.getrandbits = getrandbits
    cls.random = random
    # The module's functions are methods of one hidden instance, bound when `random` was
    # imported: those of C methods are bound again, to the wrappers.
    _random.random = _random._inst.random
    _random.getrandbits = _random._inst.getrandbits


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
