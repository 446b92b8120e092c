# Generator of "rangesum": `gen.py N Q [V] SEED` prints n <= N values in -V..V (default
# 10^9) and q <= Q queries, n and q drawn from 1..N and 1..Q; `gen.py SEED` (as `duipai
# stress` runs it) is `gen.py 10 10 SEED`.
import random
import sys

args = [int(a) for a in sys.argv[1:]]
seed = args[-1]
big_n, big_q = (args[0], args[1]) if len(args) >= 3 else (10, 10)
v = args[2] if len(args) > 3 else 10**9
rng = random.Random(seed)
n = rng.randint(1, big_n)
q = rng.randint(1, big_q)
out = [f"{n} {q}", " ".join(str(rng.randint(-v, v)) for _ in range(n))]
for _ in range(q):
    l = rng.randint(1, n)
    r = rng.randint(l, n)
    out.append(f"{l} {r}")
sys.stdout.write("\n".join(out) + "\n")
