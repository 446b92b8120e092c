// "rangesum": prefix sums in 64 bits.
#include <cstdio>
#include <vector>

int main() {
    int n, q;
    if (std::scanf("%d %d", &n, &q) != 2) return 1;
    std::vector<long long> prefix(n + 1, 0);
    for (int i = 1; i <= n; i++) {
        long long a;
        std::scanf("%lld", &a);
        prefix[i] = prefix[i - 1] + a;
    }
    while (q--) {
        int l, r;
        std::scanf("%d %d", &l, &r);
        std::printf("%lld\n", prefix[r] - prefix[l - 1]);
    }
}
