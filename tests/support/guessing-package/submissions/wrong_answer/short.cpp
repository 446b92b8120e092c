// Binary search for the secret, with a bug: the search starts below n, so a secret equal to n
// is never found.
#include <iostream>
#include <string>

int main() {
    long long n;
    std::cin >> n;
    long long lo = 1, hi = n - 1;
    while (true) {
        long long mid = (lo + hi) / 2;
        std::cout << "? " << mid << std::endl;
        std::string reply;
        if (!(std::cin >> reply) || reply == "=") return 0;
        if (reply == "<") hi = mid - 1; else lo = mid + 1;
    }
}
