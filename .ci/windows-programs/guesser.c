/* A guessing program: halves the range 1..100 until it is told "="; with an argument
   (`linear`), tries 1, 2, 3, ... instead, too many guesses for the interactor. */
#include <stdio.h>
int main(int argc, char **argv) {
    int low = 1, high = 100, linear = argc > 1;
    char reply[8];
    while (low <= high) {
        int guess = linear ? low : (low + high) / 2;
        printf("%d\n", guess);
        fflush(stdout);
        if (scanf("%7s", reply) != 1 || reply[0] == '=') return 0;
        if (reply[0] == '<') low = guess + 1; else high = guess - 1;
    }
    return 0;
}
