// chessboard (CCPC 2019 Qinhuangdao G, "Game on Chessboard"): the reference solution of the
// problem package.
//
// The cleared cells form a staircase anchored at the bottom-left corner: column j is cleared up
// to a height h_j, with n >= h_0 >= h_1 >= ... >= h_{n-1} >= 0, and the removable pieces are
// exactly the cells just above it (the corners). A state is that staircase as a word of 2n
// bits: for each column j in turn, h_{j-1} - h_j zeros (h_{-1} = n), then a one for the column;
// the remaining h_{n-1} zeros last. Clearing the next cell of column j, at row i - j from the
// top when its zero is bit i, turns the bits "0 1" at i, i + 1 into "1 0": the state loses
// 2^i. Every successor is a smaller number, so one pass over the states in increasing order
// prices every successor first. An empty corner is cleared for free at once: it takes nothing
// away from what can follow.
#include <cstdio>
#include <cstdlib>
#include <vector>

int main() {
    int n;
    if (std::scanf("%d", &n) != 1) return 1;
    std::vector<char> cell(n * n);
    for (int r = 0; r < n; r++) {
        char row[32];
        std::scanf("%31s", row);
        for (int c = 0; c < n; c++) cell[r * n + c] = row[c];
    }
    std::vector<long long> weight(n * n);
    for (auto &w : weight) std::scanf("%lld", &w);

    const int len = 2 * n;
    std::vector<int> cost(1u << len, 0);  // at most 144 pieces of weight 10^6
    const unsigned cleared = (1u << n) - 1;  // n ones first: every column cleared to the top
    const unsigned start = cleared << n;     // n zeros first: nothing cleared
    struct Corner { int cell; unsigned bit; };
    std::vector<Corner> white, black;
    for (unsigned s = cleared;;) {
        if (s != cleared) {
            white.clear();
            black.clear();
            long long best = -1;
            int column = 0;
            for (int i = 0; i + 1 < len && best < 0; i++) {
                if (s >> i & 1) {
                    column++;
                    continue;
                }
                if (!(s >> (i + 1) & 1)) continue;
                int at = (i - column) * n + column;
                unsigned bit = 1u << i;
                if (cell[at] == '.') {
                    best = cost[s - bit];  // free, and never worse than anything else
                } else {
                    (cell[at] == 'W' ? white : black).push_back({at, bit});
                }
            }
            if (best < 0) {
                for (auto *side : {&white, &black}) {
                    for (auto c : *side) {
                        long long v = cost[s - c.bit] + weight[c.cell];
                        if (best < 0 || v < best) best = v;
                    }
                }
                for (auto w : white) {
                    for (auto b : black) {
                        long long v = cost[s - w.bit - b.bit] + std::llabs(weight[w.cell] - weight[b.cell]);
                        if (v < best) best = v;
                    }
                }
            }
            cost[s] = int(best);
        }
        if (s == start) break;
        unsigned low = s & -s, up = s + low;
        s = up | (((s ^ up) >> 2) / low);
    }
    std::printf("%d\n", cost[start]);
    return 0;
}
