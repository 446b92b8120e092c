# The input validator: one integer 2 <= n <= 1000000 on one line (exit 0 when valid).
import re
import sys

text = sys.stdin.read()
sys.exit(0 if re.fullmatch(r"[1-9][0-9]*\n", text) and 2 <= int(text) <= 1000000 else 1)
