// The calibration solution of `shooting` (UVa 11844): the memoized expectation over boards,
// a board being its column heights written as one base-7 number, the memo cleared for every
// case. P(board) = the best, over a row and a side, of the mean over the bullet's power k of
// 1 when the shot empties the board, else 1 - P(what it leaves). Reads the problem's input,
// prints A's winning probability with 6 decimals per case.
#include <cstdio>
#include <cstring>

static int n;
static double memo[117649];
static bool known[117649];

static int code(const int *h) {
    int k = 0;
    for (int i = 0; i < n; i++) k = k * 7 + h[i];
    return k;
}

static double win(int *h) {
    int k = code(h);
    if (known[k]) return memo[k];
    int top = 0, total = 0;
    for (int i = 0; i < n; i++) {
        if (h[i] > top) top = h[i];
        total += h[i];
    }
    double best = 0;
    for (int row = 1; row <= top; row++) {
        int cols[6], count = 0;
        for (int i = 0; i < n; i++)
            if (h[i] >= row) cols[count++] = i;
        for (int side = 0; side < 2; side++) {
            double sum = 0;
            for (int power = 1; power <= 3; power++) {
                int hit = power < count ? power : count;
                for (int j = 0; j < hit; j++) h[cols[side ? count - 1 - j : j]]--;
                sum += total == hit ? 1.0 : 1.0 - win(h);
                for (int j = 0; j < hit; j++) h[cols[side ? count - 1 - j : j]]++;
            }
            if (sum / 3 > best) best = sum / 3;
        }
    }
    known[k] = true;
    return memo[k] = best;
}

int main() {
    while (std::scanf("%d", &n) == 1 && n != 0) {
        int h[6];
        for (int i = 0; i < n; i++) std::scanf("%d", &h[i]);
        std::memset(known, 0, sizeof known);
        std::printf("%.6f\n", win(h));
    }
    return 0;
}
