// "rangesum" adding up every query's range: n * q steps, too slow for the largest tests.
#include <cstdio>
#include <vector>

int main() {
    int n, q;
    if (std::scanf("%d %d", &n, &q) != 2) return 1;
    std::vector<long long> a(n + 1);
    for (int i = 1; i <= n; i++) std::scanf("%lld", &a[i]);
    while (q--) {
        int l, r;
        std::scanf("%d %d", &l, &r);
        long long sum = 0;
        for (int i = l; i <= r; i++) sum += a[i];
        std::printf("%lld\n", sum);
    }
}
