# The reference: p[i] = i + 1, and p[n] = 1.
n = int(input())
print(*[i % n + 1 for i in range(1, n + 1)])
