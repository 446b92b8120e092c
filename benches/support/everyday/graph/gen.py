# A connected graph of 2 to 8 vertices and up to 12 edges, weights up to 10^9: a random tree,
# then more edges, shuffled.
import random
import sys

random.seed(int(sys.argv[-1]))
n = random.randint(2, 8)
m = random.randint(n - 1, 12)
edges = [(random.randint(1, i - 1), i) for i in range(2, n + 1)]
while len(edges) < m:
    edges.append((random.randint(1, n), random.randint(1, n)))
random.shuffle(edges)
print(n, m)
for u, v in edges:
    print(u, v, random.randint(1, 10**9))
