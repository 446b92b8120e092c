// A tree of n vertices (n, then n - 1 lines `u v w`) is valid: labels within 1..n, weights
// within 1..10^9, no edge closing a cycle, nothing after.
#include <bits/stdc++.h>
int find(std::vector<int> &p, int x) {
  while (p[x] != x) x = p[x] = p[p[x]];
  return x;
}
int main() {
  int n; char c;
  if (scanf("%d", &n) != 1 || n < 2 || n > 200000) return 1;
  std::vector<int> p(n + 1); std::iota(p.begin(), p.end(), 0);
  for (int i = 1; i < n; i++) {
    long long u, v, w;
    if (scanf("%lld %lld %lld", &u, &v, &w) != 3) return 1;
    if (u < 1 || u > n || v < 1 || v > n || w < 1 || w > 1000000000) return 1;
    if (find(p, u) == find(p, v)) return 1;
    p[find(p, u)] = find(p, v);
  }
  if (scanf(" %c", &c) == 1) return 1;
  return 0;
}
