// chess (Luogu P4363, 九省联考 2018 一双木棋): the reference solution of the problem package.
//
// The filled cells form a staircase anchored at the top-left corner: column j is filled down
// to a height c_j, with n >= c_0 >= c_1 >= ... >= c_{m-1} >= 0. A state is that staircase as
// a word of n + m bits: for each column j in turn, c_{j-1} - c_j zeros (c_{-1} = n), then a one
// for the column; the remaining c_{m-1} zeros last. So c_j is n minus the zeros before column
// j's one. Filling the next cell of column j turns the bits "0 1" at i, i + 1 into "1 0": the
// state loses 2^i. Every successor is a smaller number, and one pass over the states in
// increasing order values every successor first.
#include <algorithm>
#include <cstdio>
#include <vector>

int main() {
    int n, m;
    if (std::scanf("%d %d", &n, &m) != 2) return 1;
    std::vector<long long> a(n * m), b(n * m);
    for (auto &v : a) std::scanf("%lld", &v);
    for (auto &v : b) std::scanf("%lld", &v);
    const int len = n + m;
    // value[s]: Feifei's score minus Niuniu's from state s on, both playing optimally.
    std::vector<long long> value(1u << len, 0);
    const unsigned full = (1u << m) - 1;          // m right steps first: every cell filled
    const unsigned empty = full << n;             // n down steps first: no cell filled
    // Every m-subset of the n + m steps in increasing order (Gosper's hack).
    for (unsigned s = full;; ) {
        if (s != full) {
            int column = 0, filled = 0;
            std::vector<std::pair<int, unsigned>> moves;  // (cell, next state)
            for (int i = 0; i < len; i++) {
                if (s >> i & 1) {
                    filled += n - (i - column);  // the column's height: n minus the downs so far
                    column++;
                } else if (i + 1 < len && (s >> (i + 1) & 1)) {
                    int row = n - (i + 1 - column);  // downs before step i + 1 leave this row
                    moves.push_back({row * m + column, s - (1u << i)});
                }
            }
            bool feifei = filled % 2 == 0;
            long long best = 0;
            bool first = true;
            for (auto [cell, next] : moves) {
                long long v = feifei ? value[next] + a[cell] : value[next] - b[cell];
                if (first || (feifei ? v > best : v < best)) best = v;
                first = false;
            }
            value[s] = best;
        }
        if (s == empty) break;
        unsigned low = s & -s, up = s + low;
        s = up | (((s ^ up) >> 2) / low);
    }
    std::printf("%lld\n", value[empty]);
    return 0;
}
