// gen Q MODE: Q queries; MODE "quiet" adds only (no output is asked for), "mixed" also asks.
#include "testlib.h"
#include <string>

int main(int argc, char* argv[]) {
    registerGen(argc, argv, 1);
    int q = atoi(argv[1]);
    bool quiet = std::string(argv[2]) == "quiet";
    printf("%d\n", q);
    for (int i = 0; i < q; i++) {
        if (!quiet && rnd.next(2) == 0)
            printf("ask\n");
        else
            printf("add %d\n", rnd.next(0, 1000));
    }
}
