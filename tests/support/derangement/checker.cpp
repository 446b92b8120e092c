// Checker for "derangement": the input is n, the output must be a permutation p of 1..n with
// p[i] != i for every i. Any such permutation is accepted; the answer file holds one, which
// the checker only checks (a broken answer file is the checker's failure, exit 3).
#include "testlib.h"

#include <vector>

// Reads a derangement of 1..n from `stream`; `quitf`s with the stream's verdict otherwise.
static std::vector<int> readDerangement(InStream &stream, int n) {
    std::vector<int> p(n + 1), seenAt(n + 1, 0);
    for (int i = 1; i <= n; i++) {
        p[i] = stream.readInt(1, n, format("p[%d]", i));
        if (p[i] == i)
            stream.quitf(_wa, "p[%d] = %d is a fixed point", i, i);
        if (seenAt[p[i]] != 0)
            stream.quitf(_wa, "p[%d] = p[%d] = %d: not a permutation", seenAt[p[i]], i, p[i]);
        seenAt[p[i]] = i;
    }
    return p;
}

int main(int argc, char *argv[]) {
    registerTestlibCmd(argc, argv);
    int n = inf.readInt(2, 1000000, "n");
    readDerangement(ans, n);
    readDerangement(ouf, n);
    quitf(_ok, "a derangement of 1..%d", n);
}
