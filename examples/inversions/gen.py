# A random case of "count the inversions": n, then n integers. The seed comes last on the
# command line, so the same seed gives the same case.
import random
import sys

rng = random.Random(int(sys.argv[-1]))
n = rng.randint(1, 10)
print(n)
print(*(rng.randint(1, 10) for _ in range(n)))
