// Tells the program n, answers "? y" with <, > or =, at most 30 queries.
#include "testlib.h"

int main(int argc, char* argv[]) {
    registerInteraction(argc, argv);
    int n = inf.readInt(), secret = inf.readInt();
    printf("%d\n", n);
    fflush(stdout);
    for (int queries = 1; queries <= 30; queries++) {
        ouf.readToken("[?]");
        int y = ouf.readInt(1, n, "y");
        if (y == secret) {
            printf("=\n");
            fflush(stdout);
            tout << queries << std::endl;
            quitf(_ok, "found %d in %d queries", secret, queries);
        }
        printf("%s\n", y < secret ? "<" : ">");
        fflush(stdout);
    }
    quitf(_wa, "30 queries without finding %d", secret);
}
