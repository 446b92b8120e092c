// duipai's std::wcmp.cpp: the sequences of tokens (words separated by blanks) must be equal.
#include "testlib.h"

int main(int argc, char* argv[]) {
    registerTestlibCmd(argc, argv);
    long long count = 0;
    while (!ans.seekEof()) {
        std::string expected = ans.readToken();
        if (ouf.seekEof())
            quitf(_wa, "the answer has more tokens: %lld found, at least %lld expected", count, count + 1);
        std::string found = ouf.readToken();
        count++;
        if (expected != found)
            quitf(_wa, "token %lld differs: expected \"%s\", found \"%s\"", count,
                  compress(expected).c_str(), compress(found).c_str());
    }
    if (!ouf.seekEof())
        quitf(_wa, "the output has more tokens than the answer's %lld", count);
    quitf(_ok, "%lld token%s", count, count == 1 ? "" : "s");
}
