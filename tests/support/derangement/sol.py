# A right solution in Python: p[i] = i + 2 (mod n), or the swap for n = 2.
n = int(input())
if n == 2:
    print(2, 1)
else:
    print(*[(i + 1) % n + 1 for i in range(1, n + 1)])
