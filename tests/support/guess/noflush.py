# Binary search that never flushes: its queries wait in a block buffer (its own, so that
# PYTHONUNBUFFERED cannot flush them) while it waits for the reply.
import sys

out = open(1, "w", closefd=False)
n = int(sys.stdin.readline())
lo, hi = 1, n
while True:
    mid = (lo + hi) // 2
    print("?", mid, file=out)
    reply = sys.stdin.readline().strip()
    if reply == "=":
        break
    if reply == "<":
        hi = mid - 1
    else:
        lo = mid + 1
