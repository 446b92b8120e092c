/* The "sum" problem's generator: three lines of numbers, the seed (its argument) among them. */
#include <stdio.h>
int main(int argc, char **argv) {
    printf("5\n%s 20 300\n4000 5 6\n", argc > 1 ? argv[1] : "1");
    return 0;
}
