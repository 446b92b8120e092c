# Exit 0 for a valid input (1 <= n <= 10, then n integers in 1..10 on one line), 1 otherwise.
import sys

lines = sys.stdin.read().split("\n")
try:
    n = int(lines[0])
    a = [int(x) for x in lines[1].split()]
    ok = 1 <= n <= 10 and len(a) == n and all(1 <= x <= 10 for x in a)
    ok = ok and all(line == "" for line in lines[2:])
except (ValueError, IndexError):
    ok = False
sys.exit(0 if ok else 1)
