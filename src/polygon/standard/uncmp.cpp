// duipai's std::uncmp.cpp: the output and the answer hold the same signed 64-bit integers,
// in any order.
#include "testlib.h"
#include <algorithm>
#include <vector>

int main(int argc, char* argv[]) {
    registerTestlibCmd(argc, argv);
    std::vector<long long> expected, found;
    while (!ans.seekEof()) expected.push_back(ans.readLong());
    while (!ouf.seekEof()) found.push_back(ouf.readLong());
    if (expected.size() != found.size())
        quitf(_wa, "expected %d numbers, found %d", int(expected.size()), int(found.size()));
    std::sort(expected.begin(), expected.end());
    std::sort(found.begin(), found.end());
    for (size_t i = 0; i < expected.size(); i++)
        if (expected[i] != found[i])
            quitf(_wa, "the numbers differ: sorted, the %d-th is %lld, expected %lld", int(i + 1), found[i], expected[i]);
    quitf(_ok, "%d numbers", int(expected.size()));
}
