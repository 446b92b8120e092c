// A slower accepted approach to `fishhead` (HDU 4753), held to the packs beside the
// calibration solution (fishhead_memo.cpp): the same search over the set of drawn edges, its
// memo a std::map keyed by the whole 24-bit edge mask, cleared for every case, as some of the
// public accepted programs write it (a tree lookup per state instead of a hash). Edges: the 12
// horizontal ones row by row (0..11), then the 12 vertical ones (12..23). Reads the problem's
// input, prints `Case #k: Tom200` or `Case #k: Jerry404` per case.
#include <cstdio>
#include <map>

static int square_edges[9][4];
static int edge_squares[24][2], edge_square_count[24];
static std::map<int, int> memo;

static int horizontal(int r, int c) { return r * 3 + c; }
static int vertical(int r, int c) { return 12 + r * 4 + c; }

// The squares edge `e` completes when it is drawn into `drawn` (which lacks it).
static int completes(int drawn, int e) {
    int made = 0;
    for (int k = 0; k < edge_square_count[e]; k++) {
        const int *s = square_edges[edge_squares[e][k]];
        bool full = true;
        for (int i = 0; i < 4; i++)
            if (s[i] != e && !(drawn >> s[i] & 1)) full = false;
        if (full) made++;
    }
    return made;
}

static int best(int drawn) {
    if (drawn == (1 << 24) - 1) return 0;
    // Looked up twice, `count` then `[]`, as contestants write it.
    if (memo.count(drawn)) return memo[drawn];
    int value = -100;
    for (int e = 0; e < 24; e++) {
        if (drawn >> e & 1) continue;
        int v = completes(drawn, e) - best(drawn | 1 << e);
        if (v > value) value = v;
    }
    memo[drawn] = value;
    return value;
}

static int edge_of(int a, int b) {
    if (a > b) { int t = a; a = b; b = t; }
    int r = (a - 1) / 4, c = (a - 1) % 4;
    return b == a + 1 ? horizontal(r, c) : vertical(r, c);
}

int main() {
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) {
            int s = r * 3 + c;
            int edges[4] = {horizontal(r, c), horizontal(r + 1, c), vertical(r, c),
                            vertical(r, c + 1)};
            for (int i = 0; i < 4; i++) {
                square_edges[s][i] = edges[i];
                edge_squares[edges[i]][edge_square_count[edges[i]]++] = s;
            }
        }
    int t;
    if (std::scanf("%d", &t) != 1) return 1;
    for (int k = 1; k <= t; k++) {
        int n, drawn = 0, tom_minus_jerry = 0;
        std::scanf("%d", &n);
        for (int i = 1; i <= n; i++) {
            int a, b;
            std::scanf("%d %d", &a, &b);
            int e = edge_of(a, b);
            int made = completes(drawn, e);
            drawn |= 1 << e;
            tom_minus_jerry += i % 2 == 1 ? made : -made;
        }
        memo.clear();
        int rest = best(drawn);
        // Edge n + 1 is Tom's when it is odd-numbered.
        tom_minus_jerry += (n + 1) % 2 == 1 ? rest : -rest;
        std::printf("Case #%d: %s\n", k, tom_minus_jerry > 0 ? "Tom200" : "Jerry404");
    }
    return 0;
}
