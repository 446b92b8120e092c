/* The "sum" problem's validator: digits, spaces and line ends only, and at least one number. */
#include <stdio.h>
int main(void) {
    int c, digits = 0;
    while ((c = getchar()) != EOF) {
        if (c >= '0' && c <= '9') digits++;
        else if (c != ' ' && c != '\n' && c != '\r') return 1;
    }
    return digits > 0 ? 0 : 1;
}
