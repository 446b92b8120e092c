# T (1 to 6) test cases, each n (1 to 6) then n numbers from 1 to 9.
import random
import sys

random.seed(int(sys.argv[-1]))
t = random.randint(1, 6)
print(t)
for _ in range(t):
    n = random.randint(1, 6)
    print(n)
    print(*[random.randint(1, 9) for _ in range(n)])
