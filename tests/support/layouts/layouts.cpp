// Small problems in the layouts duipai's text shrinking reads, for its end-to-end tests:
//
//   layouts ROLE PROBLEM [SEED]     ROLE: gen (the seed last), ref, wrong, valid
//
//   tree     n, then n - 1 edges over 1..n; print the diameter. wrong: the two deepest
//            branches of vertex 1 only (the smallest tree it fails has 6 vertices).
//            valid-6: a validator that crashes on a tree of fewer than 6 vertices.
//   string   one line of lowercase letters; print the longest palindrome's length. wrong:
//            palindromes of odd length only (fails on `aa`).
//   pairsum  `n s`, then n numbers of at least 1; YES when a_i + a_j = s for some i != j.
//            wrong: allows i = j (fails on `1 2` / `1`).
//   windows  T, then T cases `n k` (1 <= k <= n) and n numbers of at least 1; per case the
//            largest sum of k in a row. wrong: never looks at the last window (fails on
//            `1` / `2 1` / `1 2`).
//
// A validator exits 0 for a valid input, 1 otherwise, and reads the canonical form only:
// tokens separated by single spaces, every line ended by a line break.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
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
    if (word.empty() || word.size() > 12 || (word.size() > 1 && word[0] == '0')) return false;
    for (char c : word)
        if (c < '0' || c > '9') return false;
    out = atoll(word.c_str());
    return lo <= out && out <= hi;
}

// ---- tree ----

static int depth(const vector<vector<int>>& adj, int v, int from) {
    int best = 0;
    for (int w : adj[v])
        if (w != from) best = std::max(best, depth(adj, w, v) + 1);
    return best;
}

// The two deepest branches at v, added.
static int through(const vector<vector<int>>& adj, int v) {
    vector<int> d;
    for (int w : adj[v]) d.push_back(depth(adj, w, v) + 1);
    std::sort(d.rbegin(), d.rend());
    int sum = 0;
    for (size_t i = 0; i < d.size() && i < 2; i++) sum += d[i];
    return sum;
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
    int best = 0;
    for (int v = 1; v <= n; v++)
        if (!wrong || v == 1) best = std::max(best, through(adj, v));
    printf("%d\n", best);
    return 0;
}

static int tree_gen() {
    int n = (int)pick(2, 12);
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

// 1 unless a tree of 1..12 vertices; crashes on a tree of fewer than `crash_below`.
static int tree_valid(int crash_below) {
    vector<vector<string>> lines;
    long long n, u, v;
    if (!read_lines(lines) || lines[0].size() != 1 || !number(lines[0][0], 1, 12, n)) return 1;
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
    char buf[1 << 16];
    if (scanf("%65535s", buf) != 1) return 2;
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

static int string_gen() {
    int n = (int)pick(1, 12);
    string s;
    for (int i = 0; i < n; i++) s += (char)('a' + pick(0, 4));
    printf("%s\n", s.c_str());
    return 0;
}

static int string_valid() {
    vector<vector<string>> lines;
    if (!read_lines(lines) || lines.size() != 1 || lines[0].size() != 1) return 1;
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
    bool found = false;
    for (long long i = 0; i < n; i++)
        for (long long j = 0; j < n; j++)
            if ((i != j || wrong) && a[i] + a[j] == s) found = true;
    puts(found ? "YES" : "NO");
    return 0;
}

static int pairsum_gen() {
    long long n = pick(1, 8), s = pick(2, 12);
    printf("%lld %lld\n", n, s);
    for (long long i = 0; i < n; i++) printf("%lld%c", pick(1, 6), i + 1 < n ? ' ' : '\n');
    return 0;
}

static int pairsum_valid() {
    vector<vector<string>> lines;
    long long n, s, x;
    if (!read_lines(lines) || lines.size() != 2 || lines[0].size() != 2) return 1;
    if (!number(lines[0][0], 1, 8, n) || !number(lines[0][1], 2, 12, s)) return 1;
    if ((long long)lines[1].size() != n) return 1;
    for (auto& w : lines[1])
        if (!number(w, 1, 6, x)) return 1;
    return 0;
}

// ---- windows ----

static int windows(bool wrong) {
    int t;
    if (scanf("%d", &t) != 1) return 2;
    while (t--) {
        int n, k;
        if (scanf("%d %d", &n, &k) != 2) return 2;
        vector<long long> a(n);
        for (auto& x : a)
            if (scanf("%lld", &x) != 1) return 2;
        long long best = 0;
        int last = wrong ? n - k - 1 : n - k;
        for (int i = 0; i <= std::max(last, 0); i++) {
            long long sum = 0;
            for (int j = i; j < i + k; j++) sum += a[j];
            best = std::max(best, sum);
        }
        printf("%lld\n", best);
    }
    return 0;
}

static int windows_gen() {
    int t = (int)pick(1, 4);
    printf("%d\n", t);
    while (t--) {
        long long n = pick(1, 6), k = pick(1, n);
        printf("%lld %lld\n", n, k);
        for (long long i = 0; i < n; i++) printf("%lld%c", pick(1, 9), i + 1 < n ? ' ' : '\n');
    }
    return 0;
}

static int windows_valid() {
    vector<vector<string>> lines;
    long long t, n, k, x;
    if (!read_lines(lines) || lines[0].size() != 1 || !number(lines[0][0], 1, 4, t)) return 1;
    if ((long long)lines.size() != 1 + 2 * t) return 1;
    for (long long c = 0; c < t; c++) {
        auto& head = lines[1 + 2 * c];
        auto& items = lines[2 + 2 * c];
        if (head.size() != 2 || !number(head[0], 1, 6, n) || !number(head[1], 1, n, k)) return 1;
        if ((long long)items.size() != n) return 1;
        for (auto& w : items)
            if (!number(w, 1, 9, x)) return 1;
    }
    return 0;
}

int main(int argc, char** argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: layouts gen|ref|wrong|valid PROBLEM [SEED]\n");
        return 2;
    }
    string role = argv[1], problem = argv[2];
    if (role == "gen") {
        state = strtoull(argv[argc - 1], nullptr, 10);
        if (problem == "tree") return tree_gen();
        if (problem == "string") return string_gen();
        if (problem == "pairsum") return pairsum_gen();
        if (problem == "windows") return windows_gen();
    }
    bool wrong = role == "wrong";
    if (role == "ref" || role == "wrong") {
        if (problem == "tree") return tree(wrong);
        if (problem == "string") return palindrome(wrong);
        if (problem == "pairsum") return pairsum(wrong);
        if (problem == "windows") return windows(wrong);
    }
    if (role == "valid") {
        if (problem == "tree") return tree_valid(0);
        if (problem == "tree-6") return tree_valid(6);
        if (problem == "string") return string_valid();
        if (problem == "pairsum") return pairsum_valid();
        if (problem == "windows") return windows_valid();
    }
    fprintf(stderr, "unknown role or problem: %s %s\n", argv[1], argv[2]);
    return 2;
}
