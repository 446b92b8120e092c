// Dijkstra from 1 with distances in int: a path longer than 2^31 - 1 overflows.
#include <bits/stdc++.h>
using namespace std;
int main() {
    int n, m;
    scanf("%d %d", &n, &m);
    vector<vector<pair<int, int>>> g(n + 1);
    for (int i = 0; i < m; i++) {
        int u, v, w;
        scanf("%d %d %d", &u, &v, &w);
        g[u].push_back({v, w}), g[v].push_back({u, w});
    }
    vector<int> d(n + 1, INT_MAX);
    vector<bool> done(n + 1);
    priority_queue<pair<int, int>, vector<pair<int, int>>, greater<>> q;
    d[1] = 0, q.push({0, 1});
    while (!q.empty()) {
        int u = q.top().second;
        q.pop();
        if (done[u]) continue;
        done[u] = true;
        for (auto [v, w] : g[u])
            if (!done[v] && d[u] + w < d[v]) d[v] = d[u] + w, q.push({d[v], v});
    }
    printf("%d\n", d[n]);
}
