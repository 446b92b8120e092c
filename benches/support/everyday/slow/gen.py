# `gen.py N SEED`: exactly N numbers from 1 to 10^9.
import random
import sys

random.seed(int(sys.argv[-1]))
n = int(sys.argv[1])
print(n)
print(*[random.randint(1, 10**9) for _ in range(n)])
