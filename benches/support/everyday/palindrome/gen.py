# A string of 1 to 12 letters among a, b, c.
import random
import sys

random.seed(int(sys.argv[-1]))
n = random.randint(1, 12)
print("".join(random.choice("abc") for _ in range(n)))
