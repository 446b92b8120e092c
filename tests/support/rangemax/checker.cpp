// Checker of "rangemax" (testlib): for each query, any index of a largest value of a[l..r] is
// right; the answer file holds one, whose value the output's must equal.
#include "testlib.h"

#include <vector>

int main(int argc, char *argv[]) {
    registerTestlibCmd(argc, argv);
    int n = inf.readInt();
    int q = inf.readInt();
    std::vector<long long> a(n + 1);
    for (int i = 1; i <= n; i++) a[i] = inf.readLong();
    for (int k = 1; k <= q; k++) {
        int l = inf.readInt(), r = inf.readInt();
        int expected = ans.readInt(l, r, format("answer %d", k));
        int found = ouf.readInt(l, r, format("index %d", k));
        if (a[found] != a[expected])
            quitf(_wa, "query %d: a[%d] = %lld is not the largest of a[%d..%d], %lld", k, found,
                  a[found], l, r, a[expected]);
    }
    quitf(_ok, "%d queries", q);
}
