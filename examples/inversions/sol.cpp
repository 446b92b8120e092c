// Counts inversions by merge sort, with a bug: equal elements count as an inversion
// (`<=` where `<` is right), so any two equal values give a wrong answer.
#include <cstdio>
#include <vector>

long long sort_count(std::vector<int>& a, int lo, int hi) {
    if (hi - lo < 2) return 0;
    int mid = (lo + hi) / 2;
    long long count = sort_count(a, lo, mid) + sort_count(a, mid, hi);
    std::vector<int> merged;
    int i = lo, j = mid;
    while (i < mid || j < hi) {
        if (j == hi || (i < mid && a[i] < a[j])) {
            merged.push_back(a[i++]);
        } else {
            count += mid - i;  // a[j] is below every a[i..mid), or equal: the bug
            merged.push_back(a[j++]);
        }
    }
    for (int k = lo; k < hi; k++) a[k] = merged[k - lo];
    return count;
}

int main() {
    int n;
    if (scanf("%d", &n) != 1) return 1;
    std::vector<int> a(n);
    for (int& x : a) scanf("%d", &x);
    printf("%lld\n", sort_count(a, 0, n));
}
