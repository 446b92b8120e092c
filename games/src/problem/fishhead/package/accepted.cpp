// fishhead (HDU 4753, "Fishhead's Little Game"): the reference solution of the problem package.
//
// The 24 unit edges of the 4x4 lattice are numbered; each of the 9 unit squares knows its four
// edges. The given edges are replayed in turn (Tom draws the odd-numbered ones), each scoring
// the squares it completes. From there on, the best a player to move can achieve (own squares
// minus the other's, from the squares still open) depends only on which edges are drawn, and
// at most 24 - n of them are left: it is memoized over the subsets of the edges left.
#include <cstdio>
#include <vector>

static int edge_of[17][17];
static unsigned square_mask[9];  // the square's four edges
static std::vector<int> squares_of[24];
static int left_edges[24];
static int left_count;
static std::vector<signed char> memo;
static const signed char unknown = 127;

// The squares that drawing edge e completes when the edges of `drawn` are already there.
static int completes(unsigned drawn, int e) {
    int count = 0;
    unsigned after = drawn | 1u << e;
    for (int q : squares_of[e]) count += (after & square_mask[q]) == square_mask[q];
    return count;
}

// The best difference for the player to move; `taken` marks the edges left already drawn.
static int best(unsigned drawn, unsigned taken) {
    if (taken + 1 == (1u << left_count)) return 0;
    signed char &slot = memo[taken];
    if (slot != unknown) return slot;
    int value = -100;
    for (int k = 0; k < left_count; k++) {
        if (taken >> k & 1) continue;
        int e = left_edges[k];
        int v = completes(drawn, e) - best(drawn | 1u << e, taken | 1u << k);
        if (v > value) value = v;
    }
    return slot = (signed char)value;
}

int main() {
    int edges = 0;
    for (int p = 1; p <= 16; p++) {
        if (p % 4 != 0) edge_of[p][p + 1] = edge_of[p + 1][p] = edges++;
        if (p + 4 <= 16) edge_of[p][p + 4] = edge_of[p + 4][p] = edges++;
    }
    int q = 0;
    for (int row = 0; row < 3; row++) {
        for (int col = 0; col < 3; col++, q++) {
            int p = row * 4 + col + 1;
            int sides[4] = {edge_of[p][p + 1], edge_of[p + 4][p + 5], edge_of[p][p + 4],
                            edge_of[p + 1][p + 5]};
            for (int k = 0; k < 4; k++) {
                square_mask[q] |= 1u << sides[k];
                squares_of[sides[k]].push_back(q);
            }
        }
    }
    int cases;
    if (std::scanf("%d", &cases) != 1) return 1;
    for (int t = 1; t <= cases; t++) {
        int n;
        std::scanf("%d", &n);
        unsigned drawn = 0;
        int score[2] = {0, 0};  // Tom, Jerry
        for (int k = 0; k < n; k++) {
            int a, b;
            std::scanf("%d %d", &a, &b);
            int e = edge_of[a][b];
            score[k % 2] += completes(drawn, e);
            drawn |= 1u << e;
        }
        left_count = 0;
        for (int e = 0; e < 24; e++) {
            if (!(drawn >> e & 1)) left_edges[left_count++] = e;
        }
        memo.assign(1u << left_count, unknown);
        int mover = n % 2;  // edge n + 1 is Tom's when n is even
        int lead = score[mover] - score[1 - mover] + best(drawn, 0);
        bool tom_wins = mover == 0 ? lead > 0 : lead < 0;
        std::printf("Case #%d: %s\n", t, tom_wins ? "Tom200" : "Jerry404");
    }
    return 0;
}
