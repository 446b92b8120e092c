# YES when the brackets are balanced: no prefix closes more than it opens, and all close.
n = int(input())
s = input().strip()
assert len(s) == n
depth = 0
for c in s:
    depth += 1 if c == "(" else -1
    if depth < 0:
        break
print("YES" if depth == 0 else "NO")
