#include <cstdio>
int main() {
    int n, s = 0, a;
    scanf("%d", &n);
    for (int i = 0; i < n; i++) { scanf("%d", &a); s = (int)((unsigned)s + (unsigned)a); }
    printf("%d\n", s);
}
