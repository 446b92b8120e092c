// The guessing game's interactor (testlib protocol: `interactor input output`). The input
// holds n and the secret x, 1 <= x <= n <= 10^9. It tells the program n, then answers each
// query "? y" with "<" (x is smaller), ">" (x is larger) or "=" (found: the game ends). More
// than 30 queries is a wrong answer; the number of queries goes to the output file.
#include "testlib.h"

#include <iostream>

int main(int argc, char* argv[]) {
    registerInteraction(argc, argv);
    const int n = inf.readInt(1, 1000000000, "n");
    const int x = inf.readInt(1, n, "x");
    const int limit = 30;
    std::cout << n << std::endl;
    for (int queries = 1;; ++queries) {
        ouf.readToken("[?]", "query mark");
        const int y = ouf.readInt(1, n, "y");
        if (queries > limit) {
            quitf(_wa, "more than %d queries", limit);
        }
        if (y == x) {
            std::cout << "=" << std::endl;
            tout << queries << std::endl;
            quitf(_ok, "found %d in %d queries", x, queries);
        }
        std::cout << (x < y ? "<" : ">") << std::endl;
    }
}
