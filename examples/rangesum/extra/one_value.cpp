// "rangesum" that forgets an array of one value: its prefix sums start at the second value,
// so every answer is 0 when n = 1. The plan's small tests (n >= 2) miss it.
#include <cstdio>
#include <vector>

int main() {
    int n, q;
    if (std::scanf("%d %d", &n, &q) != 2) return 1;
    std::vector<long long> a(n + 1), prefix(n + 1, 0);
    for (int i = 1; i <= n; i++) std::scanf("%lld", &a[i]);
    if (n > 1)
        for (int i = 1; i <= n; i++) prefix[i] = prefix[i - 1] + a[i];
    while (q--) {
        int l, r;
        std::scanf("%d %d", &l, &r);
        std::printf("%lld\n", prefix[r] - prefix[l - 1]);
    }
}
