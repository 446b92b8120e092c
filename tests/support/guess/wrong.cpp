// Binary search that forgets the top end: it never asks about n itself, so a secret equal to
// n is never found (and n = 1 makes it ask about 0).
#include <cstdio>

int main() {
    long long n;
    if (std::scanf("%lld", &n) != 1) return 1;
    long long lo = 1, hi = n - 1;
    while (true) {
        const long long mid = (lo + hi) / 2;
        std::printf("? %lld\n", mid);
        std::fflush(stdout);
        char reply[4];
        if (std::scanf("%3s", reply) != 1 || reply[0] == '=') return 0;
        if (reply[0] == '<') hi = mid - 1; else lo = mid + 1;
    }
}
