# Binary search that never flushes: on a pipe, print() keeps the query in its buffer.
n = int(input())
lo, hi = 1, n
while True:
    mid = (lo + hi) // 2
    print("?", mid)
    reply = input().strip()
    if reply == "=":
        break
    if reply == "<":
        hi = mid - 1
    else:
        lo = mid + 1
