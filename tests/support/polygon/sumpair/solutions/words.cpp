#include <cstdio>
int main() {
    int n; long long s = 0, a;
    scanf("%d", &n);
    for (int i = 0; i < n; i++) { scanf("%lld", &a); s += a; }
    printf("sum %lld\n", s);
}
