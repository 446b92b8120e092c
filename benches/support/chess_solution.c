/* A correct contestant-style solution of `chess`, the program under test of the stress
 * benchmark: memoized search over the staircase, the state being its boundary path as an
 * (n + m)-bit mask (bit set = a step up, clear = a step right, from the bottom-left corner). */
#include <limits.h>
#include <stdio.h>

static int n, m, a[10][10], b[10][10], h[10];
static long long memo[1 << 20];
static unsigned char known[1 << 20];

static int path(void) {
    int mask = 0, bit = 0;
    for (int i = n - 1; i >= 0; i--) {
        bit += h[i] - (i + 1 < n ? h[i + 1] : 0);
        mask |= 1 << bit++;
    }
    return mask;
}

static long long best_from(int filled) {
    if (filled == n * m) return 0;
    int k = path();
    if (known[k]) return memo[k];
    int feifei = filled % 2 == 0;
    long long best = feifei ? LLONG_MIN : LLONG_MAX;
    for (int i = 0; i < n; i++) {
        if (h[i] < m && (i == 0 || h[i - 1] > h[i])) {
            int j = h[i]++;
            long long rest = best_from(filled + 1);
            h[i]--;
            if (feifei && rest + a[i][j] > best) best = rest + a[i][j];
            if (!feifei && rest - b[i][j] < best) best = rest - b[i][j];
        }
    }
    known[k] = 1;
    return memo[k] = best;
}

int main(void) {
    if (scanf("%d %d", &n, &m) != 2) return 1;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            if (scanf("%d", &a[i][j]) != 1) return 1;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            if (scanf("%d", &b[i][j]) != 1) return 1;
    printf("%lld\n", best_from(0));
    return 0;
}
