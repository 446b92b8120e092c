// Reads n, then fills 256 MiB before its first query.
#include <cstdio>
#include <vector>

int main() {
    long long n;
    if (std::scanf("%lld", &n) != 1) return 1;
    std::vector<char> table(256 << 20, 1);
    volatile char sink = table[n % table.size()];
    (void)sink;
    std::printf("? %lld\n", n);
    std::fflush(stdout);
    char reply[4];
    return std::scanf("%3s", reply) == 1 ? 0 : 1;
}
