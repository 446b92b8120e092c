// The larger of the two values, as an integer.
#include "testlib.h"

int main(int argc, char* argv[]) {
    registerTestlibCmd(argc, argv);
    long long expected = ans.readLong();
    long long found = ouf.readLong();
    if (expected != found) quitf(_wa, "expected %lld, found %lld", expected, found);
    quitf(_ok, "the larger is %lld", found);
}
