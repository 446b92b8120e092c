// Reads n, then thinks forever before its first query.
#include <cstdio>

int main() {
    long long n;
    if (std::scanf("%lld", &n) != 1) return 1;
    volatile unsigned long long spin = 0;
    while (true) spin = spin + 1;
}
