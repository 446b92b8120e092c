// gen MAX WORD: two values in 1..MAX; the word only makes another test.
#include "testlib.h"
#include <cstdio>

int main(int argc, char* argv[]) {
    registerGen(argc, argv, 1);
    long long max = atoll(argv[1]);
    printf("%lld %lld\n", rnd.next(1LL, max), rnd.next(1LL, max));
}
