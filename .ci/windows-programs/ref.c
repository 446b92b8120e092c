/* The "sum" problem's reference: the sum of every number of the input. */
#include <stdio.h>
int main(void) {
    long long sum = 0, value;
    while (scanf("%lld", &value) == 1) sum += value;
    printf("%lld\n", sum);
    return 0;
}
