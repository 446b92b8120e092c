// The longest path through vertex 1: its two deepest subtrees. Wrong when the diameter
// avoids vertex 1.
#include <bits/stdc++.h>
using namespace std;
int n;
vector<vector<int>> g;
int depth(int u, int p) {
    int best = 0;
    for (int v : g[u])
        if (v != p) best = max(best, depth(v, u) + 1);
    return best;
}
int main() {
    scanf("%d", &n);
    g.assign(n + 1, {});
    for (int i = 0; i < n - 1; i++) {
        int u, v;
        scanf("%d %d", &u, &v);
        g[u].push_back(v), g[v].push_back(u);
    }
    int a = 0, b = 0;
    for (int v : g[1]) {
        int d = depth(v, 1) + 1;
        if (d > a) b = a, a = d;
        else if (d > b) b = d;
    }
    printf("%d\n", a + b);
}
