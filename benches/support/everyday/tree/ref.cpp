// The diameter: the farthest vertex from the farthest vertex from 1.
#include <bits/stdc++.h>
using namespace std;
int n;
vector<vector<int>> g;
pair<int, int> farthest(int s) {
    vector<int> d(n + 1, -1);
    queue<int> q;
    q.push(s);
    d[s] = 0;
    int best = s;
    while (!q.empty()) {
        int u = q.front();
        q.pop();
        if (d[u] > d[best]) best = u;
        for (int v : g[u])
            if (d[v] < 0) d[v] = d[u] + 1, q.push(v);
    }
    return {best, d[best]};
}
int main() {
    scanf("%d", &n);
    g.assign(n + 1, {});
    for (int i = 0; i < n - 1; i++) {
        int u, v;
        scanf("%d %d", &u, &v);
        g[u].push_back(v), g[v].push_back(u);
    }
    printf("%d\n", farthest(farthest(1).first).second);
}
