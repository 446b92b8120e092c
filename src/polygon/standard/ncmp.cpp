// duipai's std::ncmp.cpp: the ordered sequences of signed 64-bit integers of the output and
// the answer must be equal.
#include "testlib.h"

int main(int argc, char* argv[]) {
    registerTestlibCmd(argc, argv);
    long long count = 0;
    while (!ans.seekEof()) {
        long long expected = ans.readLong();
        if (ouf.seekEof())
            quitf(_wa, "the answer has more numbers: %lld found, at least %lld expected", count, count + 1);
        long long found = ouf.readLong();
        count++;
        if (expected != found)
            quitf(_wa, "number %lld differs: expected %lld, found %lld", count, expected, found);
    }
    if (!ouf.seekEof())
        quitf(_wa, "the output has more numbers than the answer's %lld", count);
    quitf(_ok, "%lld number%s", count, count == 1 ? "" : "s");
}
