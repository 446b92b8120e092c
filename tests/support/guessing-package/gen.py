# gen.py N [max] SEED: n = N and a secret x from 1 to n (x = n with `max`). Its own linear
# congruential generator, so that every Python prints the same for a seed.
import sys

n = int(sys.argv[1])
seed = int(sys.argv[-1])
state = (seed * 6364136223846793005 + 1442695040888963407) % 2**64
x = n if "max" in sys.argv[2:-1] else 1 + (state >> 11) % n
print(n, x)
