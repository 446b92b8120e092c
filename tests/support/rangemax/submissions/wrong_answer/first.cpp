// "rangemax" answering every query with its left end.
#include <cstdio>

int main() {
    int n, q;
    if (std::scanf("%d %d", &n, &q) != 2) return 1;
    for (int i = 0; i < n; i++) {
        long long a;
        std::scanf("%lld", &a);
    }
    while (q--) {
        int l, r;
        std::scanf("%d %d", &l, &r);
        std::printf("%d\n", l);
    }
}
