# Wrong: never looks at the squares in the last two columns (the smallest grid it gets
# wrong: 2 x 2, all `#`).
n, m = map(int, input().split())
g = [input() for _ in range(n)]
print(sum(1 for i in range(n - 1) for j in range(m - 2)
          if g[i][j] == g[i][j + 1] == g[i + 1][j] == g[i + 1][j + 1] == "#"))
