#include <bits/stdc++.h>
int main() {
    int n;
    long long best = 0, x;
    scanf("%d", &n);
    for (int i = 0; i < n; i++) scanf("%lld", &x), best = std::max(best, x);
    printf("%lld\n", best);
}
