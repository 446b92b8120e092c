// "rangemax": the leftmost index of a largest value, from a sparse table.
#include <cstdio>
#include <vector>

int main() {
    int n, q;
    if (std::scanf("%d %d", &n, &q) != 2) return 1;
    std::vector<long long> a(n + 1);
    for (int i = 1; i <= n; i++) std::scanf("%lld", &a[i]);
    int levels = 1;
    while ((1 << levels) <= n) levels++;
    std::vector<std::vector<int>> best(levels, std::vector<int>(n + 1));
    for (int i = 1; i <= n; i++) best[0][i] = i;
    auto better = [&](int x, int y) { return a[y] > a[x] ? y : x; };
    for (int k = 1; k < levels; k++)
        for (int i = 1; i + (1 << k) - 1 <= n; i++)
            best[k][i] = better(best[k - 1][i], best[k - 1][i + (1 << (k - 1))]);
    while (q--) {
        int l, r;
        std::scanf("%d %d", &l, &r);
        int k = 31 - __builtin_clz(r - l + 1);
        std::printf("%d\n", better(best[k][l], best[k][r - (1 << k) + 1]));
    }
}
