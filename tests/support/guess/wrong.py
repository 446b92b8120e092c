# wrong.cpp in Python: a binary search that never asks about n. Once the interactor has
# stopped it, its next input() raises EOFError, as a Python program's does on a judge.
n = int(input())
lo, hi = 1, n - 1
while True:
    mid = (lo + hi) // 2
    print("?", mid, flush=True)
    reply = input().strip()
    if reply == "=":
        break
    if reply == "<":
        hi = mid - 1
    else:
        lo = mid + 1
