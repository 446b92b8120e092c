// Compares the sums asked for, one by one. It has a bug the tests rely on: a negative
// number in the output crashes it.
#include "testlib.h"
#include <cstdlib>

int main(int argc, char* argv[]) {
    registerTestlibCmd(argc, argv);
    int n = 0;
    while (!ans.seekEof()) {
        long long want = ans.readLong();
        if (ouf.seekEof()) quitf(_wa, "answer %d is missing", n + 1);
        long long got = ouf.readLong();
        if (got < 0) abort();
        if (got != want) quitf(_wa, "answer %d: expected %lld, found %lld", n + 1, want, got);
        n++;
    }
    if (!ouf.seekEof()) quitf(_wa, "more answers than the %d asked for", n);
    quitf(_ok, "%d answers", n);
}
