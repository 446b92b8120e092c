// chess with a memo that reads 0 as "not computed yet": states worth 0 are searched again
// every time they are reached.
#include <cstdio>
#include <vector>
int n, m;
long long a[10][10], b[10][10];
std::vector<long long> memo;
int h[10];  // cells filled in each row
// The staircase as n + m bits: per row, a one for each column its length falls short of the
// row above's, then a zero.
long long key() {
    long long k = 0;
    int prev = m;
    for (int i = 0; i < n; i++) {
        for (int c = h[i]; c < prev; c++) k = k * 2 + 1;
        k = k * 2;
        prev = h[i];
    }
    for (int c = 0; c < prev; c++) k = k * 2 + 1;
    return k;
}
long long best(int filled) {
    if (filled == n * m) return 0;
    long long k = key();
    if (memo[k]) return memo[k];
    bool feifei = filled % 2 == 0;
    long long r = feifei ? -(1LL << 60) : (1LL << 60);
    for (int i = 0; i < n; i++) {
        if (h[i] < m && (i == 0 || h[i - 1] > h[i])) {
            int j = h[i];
            h[i]++;
            long long v = best(filled + 1);
            h[i]--;
            if (feifei) { if (v + a[i][j] > r) r = v + a[i][j]; }
            else if (v - b[i][j] < r) r = v - b[i][j];
        }
    }
    return memo[k] = r;
}
int main() {
    std::scanf("%d %d", &n, &m);
    for (int i = 0; i < n; i++) for (int j = 0; j < m; j++) std::scanf("%lld", &a[i][j]);
    for (int i = 0; i < n; i++) for (int j = 0; j < m; j++) std::scanf("%lld", &b[i][j]);
    long long size = 1LL << (n + m);
    memo.assign(size, 0);
    std::printf("%lld\n", best(0));
}
