// The calibration solution of `chess` (Luogu P4363): the plain memoized search over the
// staircase that the accepted contest programs write, its state the filled length of every
// row written as one base-(m+1) number and kept in a std::map. Whose turn it is follows from
// the number of filled cells. Reads the problem's input, prints the answer.
#include <climits>
#include <cstdio>
#include <map>

static int n, m, a[10][10], b[10][10], len[10];
static std::map<long long, int> memo;

static long long key() {
    long long k = 0;
    for (int i = 0; i < n; i++) k = k * (m + 1) + len[i];
    return k;
}

// The best Feifei-minus-Niuniu difference of the cells still empty, with `filled` filled.
static int best(int filled) {
    if (filled == n * m) return 0;
    long long k = key();
    auto found = memo.find(k);
    if (found != memo.end()) return found->second;
    bool feifei = filled % 2 == 0;
    int value = feifei ? INT_MIN : INT_MAX;
    for (int i = 0; i < n; i++) {
        if (len[i] == m || (i > 0 && len[i - 1] == len[i])) continue;
        int j = len[i]++;
        int rest = best(filled + 1);
        len[i]--;
        if (feifei) {
            if (a[i][j] + rest > value) value = a[i][j] + rest;
        } else if (rest - b[i][j] < value) {
            value = rest - b[i][j];
        }
    }
    memo[k] = value;
    return value;
}

int main() {
    if (std::scanf("%d %d", &n, &m) != 2) return 1;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) std::scanf("%d", &a[i][j]);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) std::scanf("%d", &b[i][j]);
    std::printf("%d\n", best(0));
    return 0;
}
