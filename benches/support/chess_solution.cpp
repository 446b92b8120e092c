// A correct contestant-style solution of `chess`, used by the stress benchmark as the program
// under test: memoized search over the row-length profile, keyed base 11.
#include <algorithm>
#include <climits>
#include <cstdio>
#include <unordered_map>

static int n, m, a[10][10], b[10][10], h[10];
static std::unordered_map<long long, long long> memo;

static long long key() {
    long long k = 0;
    for (int i = 0; i < n; i++) k = k * 11 + h[i];
    return k;
}

static long long best_from(int filled) {
    if (filled == n * m) return 0;
    long long k = key();
    auto it = memo.find(k);
    if (it != memo.end()) return it->second;
    bool feifei = filled % 2 == 0;
    long long best = feifei ? LLONG_MIN : LLONG_MAX;
    for (int i = 0; i < n; i++) {
        if (h[i] < m && (i == 0 || h[i - 1] > h[i])) {
            int j = h[i]++;
            long long rest = best_from(filled + 1);
            h[i]--;
            best = feifei ? std::max(best, rest + a[i][j]) : std::min(best, rest - b[i][j]);
        }
    }
    return memo[k] = best;
}

int main() {
    if (scanf("%d %d", &n, &m) != 2) return 1;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) scanf("%d", &a[i][j]);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) scanf("%d", &b[i][j]);
    printf("%lld\n", best_from(0));
    return 0;
}
