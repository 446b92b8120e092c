// duipai's std::dcmp.cpp: one real number, equal to the answer's within 1e-6, absolute or
// relative.
#include "testlib.h"

int main(int argc, char* argv[]) {
    registerTestlibCmd(argc, argv);
    double expected = ans.readDouble();
    double found = ouf.readDouble();
    if (!doubleCompare(expected, found, 1e-6))
        quitf(_wa, "expected %.10f, found %.10f, error above 1e-6", expected, found);
    quitf(_ok, "answer is %.10f", expected);
}
