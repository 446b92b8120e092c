# A grid for `duipai stress`: `n m`, then n rows of m cells, `#` or `.`. When duipai records
# or replays its choices, each run notes in choices.log how many words its command line has
# (a warm run's is its interpreter's: `python3 gen.py`, without the seed).
import os
import random
import sys

if "DUIPAI_CHOICES" in os.environ:
    with open("choices.log", "a") as log:
        log.write("%d\n" % open("/proc/self/cmdline", "rb").read().count(b"\0"))
random.seed(int(sys.argv[-1]))
n = random.randint(2, 5)
m = random.randint(2, 5)
print(n, m)
for _ in range(n):
    print("".join("#" if random.random() < 0.7 else "." for _ in range(m)))
