// duipai's std::lcmp.cpp: line by line, the tokens of each line must be equal (blanks
// between tokens and empty lines at the end do not matter).
#include "testlib.h"
#include <sstream>
#include <vector>

static std::vector<std::string> tokens(const std::string& line) {
    std::istringstream words(line);
    std::vector<std::string> found;
    std::string word;
    while (words >> word) found.push_back(word);
    return found;
}

static std::vector<std::vector<std::string>> lines_of(InStream& stream) {
    std::vector<std::vector<std::string>> lines;
    while (!stream.eof()) {
        std::string line = stream.readString();
        if (stream.eof() && line.empty()) break;
        lines.push_back(tokens(line));
    }
    while (!lines.empty() && lines.back().empty()) lines.pop_back();
    return lines;
}

int main(int argc, char* argv[]) {
    registerTestlibCmd(argc, argv);
    std::vector<std::vector<std::string>> expected = lines_of(ans), found = lines_of(ouf);
    for (size_t i = 0; i < expected.size() && i < found.size(); i++)
        if (expected[i] != found[i])
            quitf(_wa, "line %d differs", int(i + 1));
    if (expected.size() != found.size())
        quitf(_wa, "expected %d lines, found %d", int(expected.size()), int(found.size()));
    quitf(_ok, "%d line%s", int(expected.size()), expected.size() == 1 ? "" : "s");
}
