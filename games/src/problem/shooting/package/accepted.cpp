// shooting (射击游戏, UVa 11844): the reference solution of the problem package.
//
// Blocks fall down their own columns, so a battlefield is its vector of column heights, and
// an empty column changes nothing (a bullet passes gaps): every board is written as six
// heights, the missing columns empty. Row r holds a block in every column of height at least
// r. For the player to shoot, win(h) is the best, over a row and a side, of the mean over the
// powers k = 1, 2, 3 of: 1 if the bullet clears the board, else 1 - win(next board). The
// values are memoized over the 7^6 height vectors.
#include <cstdio>
#include <vector>

static std::vector<double> memo(7 * 7 * 7 * 7 * 7 * 7, -1.0);

static int code(const int h[6]) {
    int c = 0;
    for (int j = 0; j < 6; j++) c = c * 7 + h[j];
    return c;
}

static double win(const int h[6]) {
    double &slot = memo[code(h)];
    if (slot >= 0) return slot;
    int top = 0;
    for (int j = 0; j < 6; j++) top = h[j] > top ? h[j] : top;
    double best = 0;
    for (int row = 1; row <= top; row++) {
        for (int side = 0; side < 2; side++) {
            double sum = 0;
            for (int power = 1; power <= 3; power++) {
                int next[6];
                int blocks = 0, hit = 0;
                for (int j = 0; j < 6; j++) next[j] = h[j];
                for (int step = 0; step < 6 && hit < power; step++) {
                    int j = side == 0 ? step : 5 - step;
                    if (h[j] >= row) {
                        next[j]--;
                        hit++;
                    }
                }
                for (int j = 0; j < 6; j++) blocks += next[j];
                sum += blocks == 0 ? 1.0 : 1.0 - win(next);
            }
            if (sum / 3 > best) best = sum / 3;
        }
    }
    return slot = best;
}

int main() {
    int n;
    while (std::scanf("%d", &n) == 1 && n != 0) {
        int h[6] = {0, 0, 0, 0, 0, 0};
        for (int j = 0; j < n; j++) std::scanf("%d", &h[j]);
        std::printf("%.6f\n", win(h));
    }
    return 0;
}
