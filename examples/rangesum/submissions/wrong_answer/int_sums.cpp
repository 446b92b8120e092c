// "rangesum" with 32-bit sums: wrong once a sum leaves the int range.
#include <cstdio>
#include <vector>

int main() {
    int n, q;
    if (std::scanf("%d %d", &n, &q) != 2) return 1;
    std::vector<int> prefix(n + 1, 0);
    for (int i = 1; i <= n; i++) {
        long long a;
        std::scanf("%lld", &a);
        prefix[i] = (int)((unsigned)prefix[i - 1] + (unsigned)a);
    }
    while (q--) {
        int l, r;
        std::scanf("%d %d", &l, &r);
        std::printf("%d\n", (int)((unsigned)prefix[r] - (unsigned)prefix[l - 1]));
    }
}
