#include <bits/stdc++.h>
// The longest distance between two vertices of a weighted tree.
std::vector<std::vector<std::pair<int, long long>>> adj;
std::pair<long long, int> farthest(int from) {
  std::vector<long long> dist(adj.size(), -1);
  std::vector<int> stack{from};
  dist[from] = 0;
  std::pair<long long, int> best{0, from};
  while (!stack.empty()) {
    int u = stack.back(); stack.pop_back();
    best = std::max(best, {dist[u], u});
    for (auto [v, w] : adj[u]) if (dist[v] < 0) { dist[v] = dist[u] + w; stack.push_back(v); }
  }
  return best;
}
int main() {
  int n; scanf("%d", &n);
  adj.assign(n + 1, {});
  for (int i = 1; i < n; i++) { int u, v; long long w; scanf("%d %d %lld", &u, &v, &w); adj[u].push_back({v, w}); adj[v].push_back({u, w}); }
  printf("%lld\n", farthest(farthest(1).second).first);
}
