# duipai's warm start (duipai_warm.py beside this file). This folder is on PYTHONPATH only
# for the warm interpreters duipai starts (with DUIPAI_WARM=3), never for a script's run.
# Written for any Python: an old one must end here, not go on to run the script.
import os as _os
import sys as _sys

if _os.environ.get("DUIPAI_WARM") == "3":
    try:
        import duipai_warm as _warm

        _real = _warm.serve()
    except BaseException as _error:
        # The script must not run in the server, where it would run without its arguments.
        # In a run's process, stderr is the run's: the failure is the helper's to show.
        _os.write(2, ("duipai: the warm start failed: %r\n" % (_error,)).encode())
        _os._exit(70)
    # In a run's process, as its interpreter goes on starting: the site's own
    # sitecustomize run in this one's place, now, with the run's environment, or none, as a
    # fresh start has it.
    # Through the import system's own frozen module, which every start has loaded:
    # importlib.util would bring importlib, contextlib and warnings into the run, modules a
    # fresh start has not imported (unless a .pth file of the site did).
    if _real is not None:
        _module = _sys.modules["_frozen_importlib"].module_from_spec(_real)
        _sys.modules["sitecustomize"] = _module
        _real.loader.exec_module(_module)
    else:
        raise ImportError("no sitecustomize", name="sitecustomize")
