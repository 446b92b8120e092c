// duipai's std::hcmp.cpp: one integer of any size, written as the answer writes it (no
// leading zeros, no plus sign, no minus zero).
#include "testlib.h"

static bool is_integer(const std::string& s) {
    size_t at = (!s.empty() && s[0] == '-') ? 1 : 0;
    if (at == s.size()) return false;
    for (size_t i = at; i < s.size(); i++)
        if (s[i] < '0' || s[i] > '9') return false;
    if (s[at] == '0' && s.size() > at + 1) return false;
    return !(at == 1 && s == "-0");
}

int main(int argc, char* argv[]) {
    registerTestlibCmd(argc, argv);
    std::string expected = ans.readToken();
    if (!is_integer(expected)) quitf(_fail, "the answer \"%s\" is not an integer", compress(expected).c_str());
    std::string found = ouf.readToken();
    if (!is_integer(found)) quitf(_pe, "an integer expected, found \"%s\"", compress(found).c_str());
    if (expected != found)
        quitf(_wa, "expected %s, found %s", compress(expected).c_str(), compress(found).c_str());
    quitf(_ok, "answer is %s", compress(expected).c_str());
}
