#include <cstdio>
int main() {
    int n;
    scanf("%d", &n);
    for (int y = 1;; y++) {
        printf("? %d\n", y);
        fflush(stdout);
        char r[2];
        if (scanf("%1s", r) != 1 || r[0] == '=') return 0;
    }
}
