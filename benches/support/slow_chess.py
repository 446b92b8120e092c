"""A right but slow chess solution, as a contestant might write it: plain minimax over the
row profile, no memo. Exponential in the board size, so it exceeds the time limit on all
but small boards."""
import sys


def main():
    data = sys.stdin.read().split()
    n, m = int(data[0]), int(data[1])
    vals = list(map(int, data[2:]))
    a = [vals[i * m:(i + 1) * m] for i in range(n)]
    b = [vals[n * m + i * m:n * m + (i + 1) * m] for i in range(n)]
    filled = [0] * n

    def go(turn):
        if turn == n * m:
            return 0
        feifei = turn % 2 == 0
        best = None
        for i in range(n):
            j = filled[i]
            if j < m and (i == 0 or filled[i - 1] > j):
                filled[i] += 1
                rest = go(turn + 1)
                filled[i] -= 1
                value = a[i][j] + rest if feifei else rest - b[i][j]
                if best is None or (value > best if feifei else value < best):
                    best = value
        return best

    print(go(0))


main()
