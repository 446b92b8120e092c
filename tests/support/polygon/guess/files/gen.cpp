// gen N: the range 1..N and a secret in it.
#include "testlib.h"
#include <cstdio>

int main(int argc, char* argv[]) {
    registerGen(argc, argv, 1);
    int n = atoi(argv[1]);
    printf("%d %d\n", n, rnd.next(1, n));
}
