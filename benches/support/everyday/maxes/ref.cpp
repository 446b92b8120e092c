#include <bits/stdc++.h>
int main() {
    int t;
    scanf("%d", &t);
    while (t--) {
        int n, best = 0;
        scanf("%d", &n);
        for (int i = 0; i < n; i++) {
            int x;
            scanf("%d", &x);
            best = std::max(best, x);
        }
        printf("%d\n", best);
    }
}
