// duipai's std::fcmp.cpp: the lines of the output must be exactly the answer's.
#include "testlib.h"
#include <vector>

static std::vector<std::string> lines_of(InStream& stream) {
    std::vector<std::string> lines;
    while (!stream.eof()) {
        std::string line = stream.readString();
        if (stream.eof() && line.empty()) break;
        lines.push_back(line);
    }
    return lines;
}

int main(int argc, char* argv[]) {
    registerTestlibCmd(argc, argv);
    std::vector<std::string> expected = lines_of(ans), found = lines_of(ouf);
    for (size_t i = 0; i < expected.size() && i < found.size(); i++)
        if (expected[i] != found[i])
            quitf(_wa, "line %d differs: expected \"%s\", found \"%s\"", int(i + 1),
                  compress(expected[i]).c_str(), compress(found[i]).c_str());
    if (expected.size() != found.size())
        quitf(_wa, "expected %d lines, found %d", int(expected.size()), int(found.size()));
    quitf(_ok, "%d line%s", int(expected.size()), expected.size() == 1 ? "" : "s");
}
