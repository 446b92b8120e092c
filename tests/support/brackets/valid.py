# Valid: `n` (2..12, even), then n brackets.
import sys
lines = sys.stdin.read().split("\n")
if len(lines) != 3 or lines[2] != "":
    sys.exit(1)
n = lines[0]
if not n.isdigit() or n != str(int(n)) or not 2 <= int(n) <= 12 or int(n) % 2:
    sys.exit(1)
if len(lines[1]) != int(n) or set(lines[1]) - set("()"):
    sys.exit(1)
