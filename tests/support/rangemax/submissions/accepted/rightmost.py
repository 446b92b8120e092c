# "rangemax": the rightmost index of a largest value, by scanning (small tests only).
import sys

data = sys.stdin.buffer.read().split()
n, q = int(data[0]), int(data[1])
a = [0] + [int(x) for x in data[2 : 2 + n]]
at = 2 + n
out = []
for _ in range(q):
    l, r = int(data[at]), int(data[at + 1])
    at += 2
    best = r
    for i in range(r, l - 1, -1):
        if a[i] > a[best]:
            best = i
    out.append(str(best))
sys.stdout.write("\n".join(out) + "\n")
