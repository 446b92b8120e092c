// The calibration solution of `chessboard` (CCPC 2019 Qinhuangdao G): the memoized search over
// the boundary of the removed region that accepted programs write, in a dense int table of
// 2^(2n) entries (64 MiB at n = 12) set to -1 first. The boundary runs from the top-left corner
// to the bottom-right one; step p of it is bit p of the state, 1 a step right, 0 a step down.
// A step down followed by a step right is a corner: the cell there has nothing left below it
// or to its left, so it may be removed alone, or with a piece of the other colour at another
// corner. An empty cell is removed alone at no cost, which changes nothing. Reads the
// problem's input, prints the minimum cost.
#include <cstdio>
#include <cstdlib>
#include <cstring>

static int n;
static char board[12][13];
static int w[12][12];
static int memo[1 << 24];

static int cost(int state) {
    int &known = memo[state];
    if (known != -1) return known;
    int corner[12], row[12], col[12], corners = 0;
    for (int p = 0, r = 0, c = 0; p < 2 * n; p++) {
        bool right = state >> p & 1;
        if (!right && p + 1 < 2 * n && (state >> (p + 1) & 1)) {
            corner[corners] = p;
            row[corners] = r;
            col[corners] = c;
            corners++;
        }
        if (right) c++; else r++;
    }
    if (corners == 0) return known = 0;
    int best = -1;
    for (int i = 0; i < corners; i++) {
        int next = state ^ (3 << corner[i]);
        int value = w[row[i]][col[i]] + cost(next);
        if (best == -1 || value < best) best = value;
    }
    for (int i = 0; i < corners; i++) {
        if (board[row[i]][col[i]] != 'W') continue;
        for (int j = 0; j < corners; j++) {
            if (board[row[j]][col[j]] != 'B') continue;
            int next = state ^ (3 << corner[i]) ^ (3 << corner[j]);
            int value = std::abs(w[row[i]][col[i]] - w[row[j]][col[j]]) + cost(next);
            if (value < best) best = value;
        }
    }
    return known = best;
}

int main() {
    if (std::scanf("%d", &n) != 1) return 1;
    for (int i = 0; i < n; i++) std::scanf("%12s", board[i]);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) std::scanf("%d", &w[i][j]);
    std::memset(memo, -1, sizeof memo);
    // Nothing removed: every step down first, then every step right.
    int start = ((1 << n) - 1) << n;
    std::printf("%d\n", cost(start));
    return 0;
}
