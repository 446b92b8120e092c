// A weighted path of n vertices (the first argument), weights in 1..W (the second), for the
// farthest-pair problem of ref.cpp.
#include <bits/stdc++.h>
// Its vertices are labelled at random and its edges shuffled.
int main(int argc, char **argv) {
  std::mt19937_64 rng(atoll(argv[argc - 1]));
  int n = atoi(argv[1]);
  long long maxw = atoll(argv[2]);
  std::vector<int> order(n);
  std::iota(order.begin(), order.end(), 1);
  std::shuffle(order.begin(), order.end(), rng);
  std::vector<std::array<long long, 3>> edges;
  for (int i = 1; i < n; i++)
    edges.push_back({order[i - 1], order[i], (long long)(rng() % maxw) + 1});
  std::shuffle(edges.begin(), edges.end(), rng);
  printf("%d\n", n);
  for (auto &e : edges) printf("%lld %lld %lld\n", e[0], e[1], e[2]);
}
