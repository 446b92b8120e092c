// duipai's std::nyesno.cpp: a sequence of YES and NO, in any case, the answer's.
#include "testlib.h"

static std::string yes_or_no(InStream& stream, TResult otherwise) {
    std::string word = upperCase(stream.readToken());
    if (word != "YES" && word != "NO")
        stream.quitf(otherwise, "YES or NO expected, found \"%s\"", compress(word).c_str());
    return word;
}

int main(int argc, char* argv[]) {
    registerTestlibCmd(argc, argv);
    long long count = 0;
    while (!ans.seekEof()) {
        std::string expected = yes_or_no(ans, _fail);
        if (ouf.seekEof())
            quitf(_wa, "the answer has more words: %lld found, at least %lld expected", count, count + 1);
        std::string found = yes_or_no(ouf, _pe);
        count++;
        if (expected != found)
            quitf(_wa, "word %lld differs: expected %s, found %s", count, expected.c_str(), found.c_str());
    }
    if (!ouf.seekEof())
        quitf(_wa, "the output has more words than the answer's %lld", count);
    quitf(_ok, "%lld word%s", count, count == 1 ? "" : "s");
}
