// duipai's std::yesno.cpp: one YES or NO, in any case, the answer's.
#include "testlib.h"

static std::string yes_or_no(InStream& stream, TResult otherwise) {
    std::string word = upperCase(stream.readToken());
    if (word != "YES" && word != "NO")
        stream.quitf(otherwise, "YES or NO expected, found \"%s\"", compress(word).c_str());
    return word;
}

int main(int argc, char* argv[]) {
    registerTestlibCmd(argc, argv);
    std::string expected = yes_or_no(ans, _fail);
    std::string found = yes_or_no(ouf, _pe);
    if (expected != found) quitf(_wa, "expected %s, found %s", expected.c_str(), found.c_str());
    quitf(_ok, "answer is %s", expected.c_str());
}
