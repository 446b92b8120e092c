// duipai's std::icmp.cpp: one signed 32-bit integer, equal to the answer's.
#include "testlib.h"

int main(int argc, char* argv[]) {
    registerTestlibCmd(argc, argv);
    int expected = ans.readInt();
    int found = ouf.readInt();
    if (expected != found) quitf(_wa, "expected %d, found %d", expected, found);
    quitf(_ok, "answer is %d", expected);
}
