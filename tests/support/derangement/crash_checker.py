# A checker that crashes: it says something on stderr, then kills itself with SIGSEGV.
import os
import signal
import sys

print("checking", sys.argv[1], file=sys.stderr, flush=True)
os.kill(os.getpid(), signal.SIGSEGV)
