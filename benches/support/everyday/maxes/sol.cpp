// The last number is read but not compared (an off-by-one in the loop bound).
#include <bits/stdc++.h>
int main() {
    int t;
    scanf("%d", &t);
    while (t--) {
        int n, best = 0;
        scanf("%d", &n);
        std::vector<int> a(n);
        for (int &x : a) scanf("%d", &x);
        for (int i = 0; i < std::max(1, n - 1); i++) best = std::max(best, a[i]);
        printf("%d\n", best);
    }
}
