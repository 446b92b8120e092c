// "rangesum" with a prefix array sized for 1000 values: crashes on the largest tests.
#include <cstdio>

static long long prefix[1001];

int main() {
    int n, q;
    if (std::scanf("%d %d", &n, &q) != 2) return 1;
    for (int i = 1; i <= n; i++) {
        long long a;
        std::scanf("%lld", &a);
        prefix[i] = prefix[i - 1] + a;
        if (i > 1000) __builtin_trap();
    }
    while (q--) {
        int l, r;
        std::scanf("%d %d", &l, &r);
        std::printf("%lld\n", prefix[r] - prefix[l - 1]);
    }
}
