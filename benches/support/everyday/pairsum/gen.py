# n (1 to 10) and s (2 to 40), then n numbers from 1 to 20.
import random
import sys

random.seed(int(sys.argv[-1]))
n = random.randint(1, 10)
s = random.randint(2, 40)
print(n, s)
print(*[random.randint(1, 20) for _ in range(n)])
