# "rangesum" in Python: prefix sums, with the loops in the interpreter's built-ins.
import sys
from itertools import accumulate

data = sys.stdin.buffer.read().split()
n, q = int(data[0]), int(data[1])
prefix = [0, *accumulate(map(int, data[2 : 2 + n]))]
lefts = map(int, data[2 + n :: 2])
rights = map(int, data[3 + n :: 2])
sums = [prefix[r] - prefix[l - 1] for l, r in zip(lefts, rights)]
sys.stdout.write("\n".join(map(str, sums)) + "\n")
