/* A wrong solution of "sum": one too many once some number is at least 100. */
#include <stdio.h>
int main(void) {
    long long sum = 0, value;
    int big = 0;
    while (scanf("%lld", &value) == 1) {
        sum += value;
        if (value >= 100) big = 1;
    }
    printf("%lld\n", sum + big);
    return 0;
}
