// The number no other one exceeds, by comparing every pair: right, and O(n^2).
#include <bits/stdc++.h>
int main() {
    int n;
    scanf("%d", &n);
    std::vector<long long> a(n);
    for (auto &x : a) scanf("%lld", &x);
    long long best = a[0];
    for (int i = 0; i < n; i++) {
        bool top = true;
        for (int j = 0; j < n; j++) top &= a[j] <= a[i];
        if (top) best = a[i];
    }
    printf("%lld\n", best);
}
