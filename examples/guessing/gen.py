# A random case: n from 1 to 10 and the secret x from 1 to n. duipai passes the seed as the
# last argument.
import random
import sys

rng = random.Random(int(sys.argv[-1]))
n = rng.randint(1, 10)
print(n, rng.randint(1, n))
