// duipai's std::rcmp6.cpp: the sequences of real numbers must be equal within 1e-6,
// absolute or relative.
#include "testlib.h"

int main(int argc, char* argv[]) {
    registerTestlibCmd(argc, argv);
    const double EPS = 1e-6;
    long long count = 0;
    while (!ans.seekEof()) {
        double expected = ans.readDouble();
        if (ouf.seekEof())
            quitf(_wa, "the answer has more numbers: %lld found, at least %lld expected", count, count + 1);
        double found = ouf.readDouble();
        count++;
        if (!doubleCompare(expected, found, EPS))
            quitf(_wa, "number %lld differs: expected %.6f, found %.6f, error above 1e-6", count, expected, found);
    }
    if (!ouf.seekEof())
        quitf(_wa, "the output has more numbers than the answer's %lld", count);
    quitf(_ok, "%lld number%s", count, count == 1 ? "" : "s");
}
