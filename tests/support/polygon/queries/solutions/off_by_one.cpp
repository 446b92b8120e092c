#include <cstdio>
#include <cstring>

int main() {
    int q;
    if (scanf("%d", &q) != 1) return 1;
    long long s = 0;
    char op[8];
    for (int i = 0; i < q; i++) {
        if (scanf("%7s", op) != 1) return 1;
        if (strcmp(op, "add") == 0) {
            int x;
            if (scanf("%d", &x) != 1) return 1;
            s += x;
        } else {
            printf("%lld\n", s + 1);
        }
    }
}
