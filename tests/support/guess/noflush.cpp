// Binary search that never flushes: its query waits in the stdio buffer while it waits for
// the reply, and the interactor waits for the query.
#include <cstdio>

int main() {
    long long n;
    if (std::scanf("%lld", &n) != 1) return 1;
    long long lo = 1, hi = n;
    while (true) {
        const long long mid = (lo + hi) / 2;
        std::printf("? %lld\n", mid);
        char reply[4];
        if (std::scanf("%3s", reply) != 1 || reply[0] == '=') return 0;
        if (reply[0] == '<') hi = mid - 1; else lo = mid + 1;
    }
}
