// A wrong solution: swaps neighbours (2 1 4 3 ...), which leaves n in place when n is odd.
#include <cstdio>

int main() {
    int n;
    if (std::scanf("%d", &n) != 1) return 1;
    for (int i = 1; i <= n; i++) {
        int p = i % 2 == 1 ? (i < n ? i + 1 : i) : i - 1;
        std::printf("%d%c", p, i == n ? '\n' : ' ');
    }
}
