// A slower accepted approach to `gems` (HDU 4778), held to the packs beside the calibration
// solution (gems_dp.cpp): a memoized search from the empty cooker over the set of bags used,
// its memo a std::map from the mask to the best difference for the player to move, cleared for
// every case. Each call rebuilds the cooker from the bags in its mask (each colour's total mod
// S) and tries every unused bag; a pour that makes stones keeps the turn. Reads the problem's
// input, prints one answer per case.
#include <cstdio>
#include <unordered_map>
#include <vector>

static int g, b, s;
static std::vector<std::vector<int>> cnt;
static std::unordered_map<int, int> memo;

static int search(int mask) {
    if (mask == (1 << b) - 1) return 0;
    auto found = memo.find(mask);
    if (found != memo.end()) return found->second;
    std::vector<int> cooker(g + 1, 0);
    for (int i = 0; i < b; i++)
        if (mask >> i & 1)
            for (int c = 1; c <= g; c++) cooker[c] += cnt[i][c];
    for (int c = 1; c <= g; c++) cooker[c] %= s;
    int best = -1000000;
    for (int i = 0; i < b; i++) {
        if (mask >> i & 1) continue;
        int made = 0;
        for (int c = 1; c <= g; c++) made += (cooker[c] + cnt[i][c]) / s;
        int rest = search(mask | 1 << i);
        int worth = made > 0 ? made + rest : -rest;
        if (worth > best) best = worth;
    }
    memo[mask] = best;
    return best;
}

int main() {
    while (std::scanf("%d %d %d", &g, &b, &s) == 3 && (g || b || s)) {
        cnt.assign(b, std::vector<int>(g + 1, 0));
        for (int i = 0; i < b; i++) {
            int n;
            std::scanf("%d", &n);
            for (int k = 0; k < n; k++) {
                int c;
                std::scanf("%d", &c);
                cnt[i][c]++;
            }
        }
        memo.clear();
        std::printf("%d\n", search(0));
    }
    return 0;
}
