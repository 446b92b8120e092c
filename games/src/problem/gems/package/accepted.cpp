// gems (HDU 4778, "Gems Fight!"): the reference solution of the problem package.
//
// Leftover gems stay in the cooker, so after the bags of a set M have been poured, the stones
// made so far are sum over colours c of floor(T_c(M) / S), where T_c(M) counts the gems of
// colour c in M, whoever poured them. Pouring bag i into M makes stones(M + i) - stones(M)
// stones, and the cooker is a function of M alone: the state is the set of bags poured. With
// best(M) the best difference (own stones minus the other's) for the player to pour next:
// best(all) = 0, and pouring bag i that makes g stones is worth g + best(M + i) when g > 0 (the
// same player pours again) and -best(M + i) otherwise. Sets are visited from the largest
// number down, so every M + i is known before M.
#include <cstdint>
#include <cstdio>
#include <vector>

int main() {
    int g, b, s;
    std::vector<std::uint64_t> total;  // per set: the gems of each colour, one byte a colour
    std::vector<std::uint8_t> stones;
    std::vector<std::int16_t> best;
    while (std::scanf("%d %d %d", &g, &b, &s) == 3 && (g || b || s)) {
        std::vector<std::uint64_t> bag(b, 0);
        for (int i = 0; i < b; i++) {
            int n;
            std::scanf("%d", &n);
            for (int k = 0; k < n; k++) {
                int colour;
                std::scanf("%d", &colour);
                bag[i] += std::uint64_t(1) << (8 * (colour - 1));  // at most 210 a colour
            }
        }
        const std::uint32_t sets = 1u << b, all = sets - 1;
        total.assign(sets, 0);
        stones.assign(sets, 0);
        best.assign(sets, 0);
        std::vector<std::uint8_t> melt(256);
        for (int v = 0; v < 256; v++) melt[v] = std::uint8_t(v / s);
        for (std::uint32_t m = 1; m < sets; m++) {
            total[m] = total[m & (m - 1)] + bag[__builtin_ctz(m)];
            int made = 0;
            for (int c = 0; c < g; c++) made += melt[(total[m] >> (8 * c)) & 0xff];
            stones[m] = std::uint8_t(made);
        }
        for (std::uint32_t m = all; m-- > 0;) {
            int value = -1000;
            for (std::uint32_t rest = all & ~m; rest; rest &= rest - 1) {
                std::uint32_t next = m | (rest & -rest);
                int made = stones[next] - stones[m];
                int v = made > 0 ? made + best[next] : -best[next];
                if (v > value) value = v;
            }
            best[m] = std::int16_t(value);
        }
        std::printf("%d\n", int(best[0]));
    }
    return 0;
}
