#include <cstdio>
int main() {
    int n;
    scanf("%d", &n);
    int lo = 1, hi = n;
    for (;;) {
        int mid = lo + (hi - lo) / 2;
        printf("? %d\n", mid);
        fflush(stdout);
        char r[2];
        scanf("%1s", r);
        if (r[0] == '=') return 0;
        if (r[0] == '<') lo = mid + 1; else hi = mid - 1;
    }
}
