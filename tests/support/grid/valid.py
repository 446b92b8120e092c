# Valid: `n m` (1..5 each), then n rows of m cells, `#` or `.`.
import sys
lines = sys.stdin.read().split("\n")
try:
    n, m = map(int, lines[0].split(" "))
except ValueError:
    sys.exit(1)
if lines[0] != "%d %d" % (n, m) or not (1 <= n <= 5 and 1 <= m <= 5):
    sys.exit(1)
if len(lines) != n + 2 or lines[-1] != "":
    sys.exit(1)
if any(len(row) != m or set(row) - set("#.") for row in lines[1:-1]):
    sys.exit(1)
