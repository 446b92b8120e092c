// Small problems in the layouts duipai's text shrinking reads, for its end-to-end tests and
// its shrink benchmark:
//
//   layouts gen PROBLEM [N] SEED     a case; with N, of that size (n, or the length)
//   layouts ref|wrong PROBLEM        the right answer, or the wrong solution's
//   layouts valid PROBLEM [N]        exit 0 for a valid input (of size at most N), 1 otherwise
//
//   tree     n, then n - 1 edges over 1..n; print the diameter. wrong: the two deepest
//            branches of vertex 1 only (the smallest tree it fails has 6 vertices).
//            valid tree-6: a validator that crashes on a tree of fewer than 6 vertices.
//   string   one line of lowercase letters; print the longest palindrome's length. wrong:
//            palindromes of odd length only (fails on `aa`).
//   pairsum  `n s`, then n numbers of at least 1; YES when a_i + a_j = s for some i != j.
//            wrong: allows i = j (fails on `1 2` / `1`).
//   windows  T, then T cases `n k` (1 <= k <= n) and n numbers of at least 1; per case the
//            largest sum of k in a row. wrong: never looks at the last window (fails on
//            `1` / `2 1` / `1 2`). With N, the cases hold N numbers in all.
//   cycle    `n m`, then m edges `u v w` (simple, weights 1..9); YES when the graph has a
//            cycle. The generator shuffles the edges before drawing their weights; n and m
//            may be equal. wrong: never looks at the last edge (the smallest case it fails:
//            a triangle, `3 3`). The reference exits 2 when an edge is missing.
//
// Without N the cases are small (trees of at most 12 vertices, values of one digit), as the
// validators without N require; with N the values are large (up to 10^9, or 10^15). A validator reads the
// canonical form only: tokens separated by single spaces, every line ended by a line break.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <queue>
#include <string>
#include <vector>

using std::string;
using std::vector;

static unsigned long long state;

static unsigned long long next_random() {
    state += 0x9e3779b97f4a7c15ULL;
    unsigned long long z = state;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

// A number in lo..=hi.
static long long pick(long long lo, long long hi) {
    return lo + (long long)(next_random() % (unsigned long long)(hi - lo + 1));
}

// The input's lines, each split at single spaces; false unless it is in canonical form.
static bool read_lines(vector<vector<string>>& lines) {
    string text;
    char buf[4096];
    size_t got;
    while ((got = fread(buf, 1, sizeof buf, stdin)) > 0) text.append(buf, got);
    if (text.empty() || text.back() != '\n') return false;
    size_t at = 0;
    while (at < text.size()) {
        size_t end = text.find('\n', at);
        string line = text.substr(at, end - at);
        at = end + 1;
        vector<string> words;
        size_t w = 0;
        while (true) {
            size_t space = line.find(' ', w);
            string word = line.substr(w, space == string::npos ? string::npos : space - w);
            if (word.empty()) return false;
            words.push_back(word);
            if (space == string::npos) break;
            w = space + 1;
        }
        lines.push_back(words);
    }
    return true;
}

// `word` as a number in lo..=hi, written without a sign or leading zero.
static bool number(const string& word, long long lo, long long hi, long long& out) {
    if (word.empty() || word.size() > 18 || (word.size() > 1 && word[0] == '0')) return false;
    for (char c : word)
        if (c < '0' || c > '9') return false;
    out = atoll(word.c_str());
    return lo <= out && out <= hi;
}

// ---- tree ----

// The distance from `from` to every vertex, and each vertex's branch: the neighbour of
// `from` it hangs below.
static void reach(const vector<vector<int>>& adj, int from, vector<int>& dist, vector<int>& branch) {
    dist.assign(adj.size(), -1);
    branch.assign(adj.size(), 0);
    std::queue<int> queue;
    dist[from] = 0;
    queue.push(from);
    while (!queue.empty()) {
        int v = queue.front();
        queue.pop();
        for (int w : adj[v])
            if (dist[w] < 0) {
                dist[w] = dist[v] + 1;
                branch[w] = v == from ? w : branch[v];
                queue.push(w);
            }
    }
}

static int tree(bool wrong) {
    int n;
    if (scanf("%d", &n) != 1) return 2;
    vector<vector<int>> adj(n + 1);
    for (int i = 0; i + 1 < n; i++) {
        int u, v;
        if (scanf("%d %d", &u, &v) != 2) return 2;
        adj[u].push_back(v);
        adj[v].push_back(u);
    }
    vector<int> dist, branch;
    reach(adj, 1, dist, branch);
    if (wrong) {
        // The deepest vertex of each branch of vertex 1: the two deepest branches added.
        vector<int> deepest(n + 1, 0);
        for (int v = 2; v <= n; v++) deepest[branch[v]] = std::max(deepest[branch[v]], dist[v]);
        std::sort(deepest.rbegin(), deepest.rend());
        printf("%d\n", deepest[0] + (n > 1 ? deepest[1] : 0));
        return 0;
    }
    int far = (int)(std::max_element(dist.begin() + 1, dist.end()) - dist.begin());
    reach(adj, far, dist, branch);
    printf("%d\n", *std::max_element(dist.begin() + 1, dist.end()));
    return 0;
}

static int tree_gen(long long size) {
    int n = size ? (int)size : (int)pick(2, 12);
    vector<int> label(n);
    for (int i = 0; i < n; i++) label[i] = i + 1;
    for (int i = n - 1; i > 0; i--) std::swap(label[i], label[pick(0, i)]);
    printf("%d\n", n);
    for (int i = 1; i < n; i++) printf("%d %d\n", label[i], label[pick(0, i - 1)]);
    return 0;
}

static int find(vector<int>& parent, int v) {
    while (parent[v] != v) v = parent[v] = parent[parent[v]];
    return v;
}

// 1 unless a tree of 1..=size vertices; crashes on a tree of fewer than `crash_below`.
static int tree_valid(long long size, int crash_below) {
    vector<vector<string>> lines;
    long long n, u, v;
    if (!read_lines(lines) || lines[0].size() != 1 || !number(lines[0][0], 1, size, n)) return 1;
    if ((long long)lines.size() != n) return 1;
    vector<int> parent(n + 1);
    for (int i = 0; i <= n; i++) parent[i] = i;
    for (size_t i = 1; i < lines.size(); i++) {
        if (lines[i].size() != 2 || !number(lines[i][0], 1, n, u) || !number(lines[i][1], 1, n, v))
            return 1;
        int a = find(parent, (int)u), b = find(parent, (int)v);
        if (a == b) return 1;
        parent[a] = b;
    }
    if (n < crash_below) abort();
    return 0;
}

// ---- string ----

static int palindrome(bool wrong) {
    static char buf[1 << 21];
    if (scanf("%2097151s", buf) != 1) return 2;
    string s = buf;
    int n = (int)s.size(), best = 0;
    for (int c = 0; c < n; c++)
        for (int even = 0; even <= (wrong ? 0 : 1); even++) {
            int l = c, r = c + even;
            while (l >= 0 && r < n && s[l] == s[r]) l--, r++;
            best = std::max(best, r - l - 1);
        }
    printf("%d\n", best);
    return 0;
}

static int string_gen(long long size) {
    long long n = size ? size : pick(1, 12);
    string s;
    for (long long i = 0; i < n; i++) s += (char)('a' + pick(0, 4));
    printf("%s\n", s.c_str());
    return 0;
}

static int string_valid(long long size) {
    vector<vector<string>> lines;
    if (!read_lines(lines) || lines.size() != 1 || lines[0].size() != 1) return 1;
    if ((long long)lines[0][0].size() > size) return 1;
    for (char c : lines[0][0])
        if (c < 'a' || c > 'z') return 1;
    return 0;
}

// ---- pairsum ----

static int pairsum(bool wrong) {
    long long n, s;
    if (scanf("%lld %lld", &n, &s) != 2) return 2;
    vector<long long> a(n);
    for (auto& x : a)
        if (scanf("%lld", &x) != 1) return 2;
    std::sort(a.begin(), a.end());
    bool found = false;
    for (long long x : a) {
        auto same = std::equal_range(a.begin(), a.end(), s - x);
        long long others = (same.second - same.first) - (s - x == x && !wrong ? 1 : 0);
        found = found || others > 0;
    }
    puts(found ? "YES" : "NO");
    return 0;
}

// Small: n <= 8, values 1..6, s 2..12. Of size N: n = N, values up to 10^15 (no two of them
// are likely to add up to s), and s twice one of them, which the wrong solution takes for a
// pair.
static int pairsum_gen(long long size) {
    long long n = size ? size : pick(1, 8), top = size ? 1000000000000000LL : 6;
    vector<long long> a(n);
    for (auto& x : a) x = pick(1, top);
    long long s = size ? 2 * a[pick(0, n - 1)] : pick(2, 12);
    printf("%lld %lld\n", n, s);
    for (long long i = 0; i < n; i++) printf("%lld%c", a[i], i + 1 < n ? ' ' : '\n');
    return 0;
}

static int pairsum_valid(long long size) {
    vector<vector<string>> lines;
    long long n, s, x, top = size > 8 ? 1000000000000000LL : 6;
    if (!read_lines(lines) || lines.size() != 2 || lines[0].size() != 2) return 1;
    if (!number(lines[0][0], 1, size, n) || !number(lines[0][1], 2, 2 * top, s)) return 1;
    if ((long long)lines[1].size() != n) return 1;
    for (auto& w : lines[1])
        if (!number(w, 1, top, x)) return 1;
    return 0;
}

// ---- windows ----

static int windows(bool wrong) {
    int t;
    if (scanf("%d", &t) != 1) return 2;
    while (t--) {
        int n, k;
        if (scanf("%d %d", &n, &k) != 2) return 2;
        vector<long long> sum(n + 1, 0);
        for (int i = 0; i < n; i++) {
            if (scanf("%lld", &sum[i + 1]) != 1) return 2;
            sum[i + 1] += sum[i];
        }
        long long best = 0;
        int last = wrong ? std::max(n - k - 1, 0) : n - k;
        for (int i = 0; i <= last; i++) best = std::max(best, sum[i + k] - sum[i]);
        printf("%lld\n", best);
    }
    return 0;
}

// Small: T <= 4 cases of n <= 6 one-digit numbers. Of size N: up to 10 cases of N numbers in
// all, up to 10^9.
static int windows_gen(long long size) {
    int t = size ? (int)std::min<long long>(pick(1, 10), size) : (int)pick(1, 4);
    long long left = size, top = size ? 1000000000 : 9;
    printf("%d\n", t);
    for (int c = 0; c < t; c++) {
        long long n = size ? (c + 1 == t ? left : pick(1, left - (t - c - 1))) : pick(1, 6);
        left -= n;
        long long k = pick(1, n);
        printf("%lld %lld\n", n, k);
        for (long long i = 0; i < n; i++) printf("%lld%c", pick(1, top), i + 1 < n ? ' ' : '\n');
    }
    return 0;
}

static int windows_valid(long long size) {
    vector<vector<string>> lines;
    long long t, n, k, x, total = 0, top = size > 6 ? 1000000000 : 9;
    if (!read_lines(lines) || lines[0].size() != 1 || !number(lines[0][0], 1, size > 6 ? 10 : 4, t))
        return 1;
    if ((long long)lines.size() != 1 + 2 * t) return 1;
    for (long long c = 0; c < t; c++) {
        auto& head = lines[1 + 2 * c];
        auto& items = lines[2 + 2 * c];
        if (head.size() != 2 || !number(head[0], 1, size, n) || !number(head[1], 1, n, k)) return 1;
        if ((long long)items.size() != n) return 1;
        for (auto& w : items)
            if (!number(w, 1, top, x)) return 1;
        total += n;
    }
    return total <= (size > 6 ? size : 24) ? 0 : 1;
}

// ---- cycle ----

static int cycle(bool wrong) {
    int n, m;
    if (scanf("%d %d", &n, &m) != 2 || n < 1) return 2;
    vector<int> parent(n + 1);
    for (int i = 0; i <= n; i++) parent[i] = i;
    bool found = false;
    for (int i = 0; i < m; i++) {
        int u, v, w;
        if (scanf("%d %d %d", &u, &v, &w) != 3 || u < 1 || u > n || v < 1 || v > n) return 2;
        if (wrong && i + 1 == m) break;
        int a = find(parent, u), b = find(parent, v);
        found = found || a == b;
        parent[a] = b;
    }
    puts(found ? "YES" : "NO");
    return 0;
}

static int cycle_gen() {
    int n = (int)pick(3, 6);
    vector<std::pair<int, int>> pairs;
    for (int u = 1; u <= n; u++)
        for (int v = u + 1; v <= n; v++) pairs.push_back({u, v});
    for (int i = (int)pairs.size() - 1; i > 0; i--) std::swap(pairs[i], pairs[pick(0, i)]);
    int m = (int)std::min<long long>(pick(n - 1, n + 1), (long long)pairs.size());
    pairs.resize(m);
    for (int i = m - 1; i > 0; i--) std::swap(pairs[i], pairs[pick(0, i)]);
    printf("%d %d\n", n, m);
    for (auto& e : pairs) printf("%d %d %lld\n", e.first, e.second, pick(1, 9));
    return 0;
}

static int cycle_valid() {
    vector<vector<string>> lines;
    long long n, m, u, v, w;
    if (!read_lines(lines) || lines[0].size() != 2 || !number(lines[0][0], 1, 8, n)) return 1;
    if (!number(lines[0][1], 0, 28, m) || (long long)lines.size() != m + 1) return 1;
    vector<std::pair<long long, long long>> seen;
    for (size_t i = 1; i < lines.size(); i++) {
        auto& e = lines[i];
        if (e.size() != 3 || !number(e[0], 1, n, u) || !number(e[1], 1, n, v) || u == v) return 1;
        if (!number(e[2], 1, 9, w)) return 1;
        std::pair<long long, long long> key = {std::min(u, v), std::max(u, v)};
        if (std::find(seen.begin(), seen.end(), key) != seen.end()) return 1;
        seen.push_back(key);
    }
    return 0;
}

int main(int argc, char** argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: layouts gen|ref|wrong|valid PROBLEM [N] [SEED]\n");
        return 2;
    }
    string role = argv[1], problem = argv[2];
    if (role == "gen") {
        long long size = argc >= 5 ? atoll(argv[3]) : 0;
        state = strtoull(argv[argc - 1], nullptr, 10);
        if (problem == "tree") return tree_gen(size);
        if (problem == "string") return string_gen(size);
        if (problem == "pairsum") return pairsum_gen(size);
        if (problem == "windows") return windows_gen(size);
        if (problem == "cycle") return cycle_gen();
    }
    bool wrong = role == "wrong";
    if (role == "ref" || role == "wrong") {
        if (problem == "tree") return tree(wrong);
        if (problem == "string") return palindrome(wrong);
        if (problem == "pairsum") return pairsum(wrong);
        if (problem == "windows") return windows(wrong);
        if (problem == "cycle") return cycle(wrong);
    }
    if (role == "valid") {
        long long size = argc >= 4 ? atoll(argv[3]) : 0;
        if (problem == "tree") return tree_valid(size ? size : 12, 0);
        if (problem == "tree-6") return tree_valid(size ? size : 12, 6);
        if (problem == "string") return string_valid(size ? size : 12);
        if (problem == "pairsum") return pairsum_valid(size ? size : 8);
        if (problem == "windows") return windows_valid(size ? size : 6);
        if (problem == "cycle") return cycle_valid();
    }
    fprintf(stderr, "unknown role or problem: %s %s\n", argv[1], argv[2]);
    return 2;
}
