#include <cstdio>
int main() {
    int n; long long s = 0, a[8];
    scanf("%d", &n);
    if (n > 8) return 3;
    for (int i = 0; i < n; i++) { scanf("%lld", &a[i]); s += a[i]; }
    printf("%lld\n", s);
}
