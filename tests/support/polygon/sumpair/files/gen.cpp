// gen N MAX [WORD], or gen --n=N --max=MAX [WORD]: N values in -MAX..MAX. testlib seeds its
// random stream from all the arguments, so a trailing word makes another test.
#include "testlib.h"
#include <cstdio>

int main(int argc, char* argv[]) {
    registerGen(argc, argv, 1);
    int n = has_opt("n") ? opt<int>("n") : atoi(argv[1]);
    long long max = has_opt("max") ? opt<long long>("max") : atoll(argv[2]);
    printf("%d\n", n);
    for (int i = 0; i < n; i++) printf("%lld%c", rnd.next(-max, max), i + 1 == n ? '\n' : ' ');
}
