// A wrong chess submission: each player takes, among the cells they may take, the one worth
// most to themselves, without looking ahead. Wrong on the statement's sample (it prints 3, the
// answer is 2).
#include <cstdio>

int main() {
    int n, m;
    if (std::scanf("%d %d", &n, &m) != 2) return 1;
    static long long a[10][10], b[10][10];
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) std::scanf("%lld", &a[i][j]);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) std::scanf("%lld", &b[i][j]);
    int filled[10] = {0};  // cells taken in each row
    long long difference = 0;
    for (int turn = 0; turn < n * m; turn++) {
        bool feifei = turn % 2 == 0;
        int best = -1;
        for (int i = 0; i < n; i++) {
            bool open = filled[i] < m && (i == 0 || filled[i - 1] > filled[i]);
            if (!open) continue;
            long long value = feifei ? a[i][filled[i]] : b[i][filled[i]];
            long long current = best < 0 ? -1 : (feifei ? a[best][filled[best]] : b[best][filled[best]]);
            if (value > current) best = i;
        }
        difference += feifei ? a[best][filled[best]] : -b[best][filled[best]];
        filled[best]++;
    }
    std::printf("%lld\n", difference);
    return 0;
}
