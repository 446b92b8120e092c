// A right solution: p[i] = i - 1, and p[1] = n (another derangement than the reference's).
#include <cstdio>

int main() {
    int n;
    if (std::scanf("%d", &n) != 1) return 1;
    for (int i = 1; i <= n; i++) std::printf("%d%c", i == 1 ? n : i - 1, i == n ? '\n' : ' ');
}
