// Dijkstra from 1, distances in 64 bits: the distance to n.
#include <bits/stdc++.h>
using namespace std;
int main() {
    int n, m;
    scanf("%d %d", &n, &m);
    vector<vector<pair<int, long long>>> g(n + 1);
    for (int i = 0; i < m; i++) {
        int u, v;
        long long w;
        scanf("%d %d %lld", &u, &v, &w);
        g[u].push_back({v, w}), g[v].push_back({u, w});
    }
    vector<long long> d(n + 1, LLONG_MAX);
    priority_queue<pair<long long, int>, vector<pair<long long, int>>, greater<>> q;
    d[1] = 0, q.push({0, 1});
    while (!q.empty()) {
        auto [du, u] = q.top();
        q.pop();
        if (du != d[u]) continue;
        for (auto [v, w] : g[u])
            if (du + w < d[v]) d[v] = du + w, q.push({d[v], v});
    }
    printf("%lld\n", d[n]);
}
