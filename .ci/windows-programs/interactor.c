/* An interactor for a guessing game (testlib's arguments: input file, output file): the
   secret is the input's number; the program guesses, and is told "<", ">" or "=". */
#include <stdio.h>
int main(int argc, char **argv) {
    FILE *input = argc > 1 ? fopen(argv[1], "r") : NULL;
    int secret, guess, asked = 0;
    if (!input || fscanf(input, "%d", &secret) != 1) return 3;
    while (scanf("%d", &guess) == 1) {
        asked++;
        printf("%s\n", guess < secret ? "<" : guess > secret ? ">" : "=");
        fflush(stdout);
        if (guess == secret) return asked <= 7 ? 0 : 1;
    }
    return 1;
}
