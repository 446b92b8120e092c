# Binary search, flushing every query.
n = int(input())
lo, hi = 1, n
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
