# A tree: 2 <= n <= 200000, then n - 1 edges u v (1 <= u, v <= n, u != v) joining every
# vertex; single spaces, one final line break.
import sys

lines = sys.stdin.read().split("\n")
assert lines[-1] == "" and len(lines) >= 2
n = int(lines[0])
assert 2 <= n <= 200000 and str(n) == lines[0] and len(lines) == n + 1
root = list(range(n + 1))


def find(x):
    while root[x] != x:
        root[x] = root[root[x]]
        x = root[x]
    return x


for line in lines[1:n]:
    u, v = map(int, line.split(" "))
    assert 1 <= u <= n and 1 <= v <= n and u != v and line == f"{u} {v}"
    a, b = find(u), find(v)
    assert a != b
    root[a] = b
