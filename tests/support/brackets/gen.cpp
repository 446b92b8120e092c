// A bracket string for `duipai stress`: `n`, then n characters of ( and ). Drawn with rand()
// seeded from the last argument, so duipai can record and replay its choices.
#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv) {
    srand((unsigned)strtoul(argv[argc - 1], nullptr, 10));
    int n = 2 * (1 + rand() % 6);
    printf("%d\n", n);
    for (int i = 0; i < n; i++) putchar(rand() % 2 ? '(' : ')');
    putchar('\n');
    return 0;
}
