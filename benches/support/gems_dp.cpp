// The baseline for the gems benchmark: the straightforward bottom-up DP over used-bag masks
// that contest programs for HDU 4778 write. For every mask, the cooker is rebuilt from the
// bags in the mask (each colour's total mod S), then every unused bag is tried; a pour that
// makes stones keeps the turn. Reads the problem's input, prints one answer per case.
#include <cstdio>
#include <cstring>
#include <vector>

int main() {
    int g, b, s;
    while (std::scanf("%d %d %d", &g, &b, &s) == 3 && (g || b || s)) {
        std::vector<std::vector<int>> cnt(b, std::vector<int>(g + 1, 0));
        for (int i = 0; i < b; i++) {
            int n;
            std::scanf("%d", &n);
            for (int k = 0; k < n; k++) {
                int c;
                std::scanf("%d", &c);
                cnt[i][c]++;
            }
        }
        int full = (1 << b) - 1;
        std::vector<int> dp(full + 1, 0);
        std::vector<int> cooker(g + 1);
        for (int mask = full - 1; mask >= 0; mask--) {
            std::fill(cooker.begin(), cooker.end(), 0);
            for (int i = 0; i < b; i++)
                if (mask >> i & 1)
                    for (int c = 1; c <= g; c++) cooker[c] += cnt[i][c];
            for (int c = 1; c <= g; c++) cooker[c] %= s;
            int best = -1000000;
            for (int i = 0; i < b; i++) {
                if (mask >> i & 1) continue;
                int made = 0;
                for (int c = 1; c <= g; c++) made += (cooker[c] + cnt[i][c]) / s;
                int rest = dp[mask | 1 << i];
                int worth = made > 0 ? made + rest : -rest;
                if (worth > best) best = worth;
            }
            dp[mask] = best;
        }
        std::printf("%d\n", dp[0]);
    }
    return 0;
}
