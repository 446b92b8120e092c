# The validator: one line "n x" with 1 <= x <= n <= 10^9; exit 0 when valid.
import sys

text = sys.stdin.read()
parts = text.split()
ok = text.endswith("\n") and text.count("\n") == 1 and len(parts) == 2
ok = ok and all(p.isdigit() and not p.startswith("0") for p in parts)
if not ok or not 1 <= int(parts[1]) <= int(parts[0]) <= 10**9:
    sys.exit(1)
