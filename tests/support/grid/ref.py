# The number of 2x2 squares of `#` cells.
n, m = map(int, input().split())
g = [input() for _ in range(n)]
print(sum(1 for i in range(n - 1) for j in range(m - 1)
          if g[i][j] == g[i][j + 1] == g[i + 1][j] == g[i + 1][j + 1] == "#"))
