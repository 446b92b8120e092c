# A tree of 2 to 12 vertices: each vertex's parent among the earlier ones, the labels
# shuffled, the edges shuffled.
import random
import sys

random.seed(int(sys.argv[-1]))
n = random.randint(2, 12)
parent = [random.randint(1, i - 1) for i in range(2, n + 1)]
label = list(range(1, n + 1))
random.shuffle(label)
edges = [(label[p - 1], label[i - 1]) for i, p in zip(range(2, n + 1), parent)]
random.shuffle(edges)
print(n)
for u, v in edges:
    print(u, v)
