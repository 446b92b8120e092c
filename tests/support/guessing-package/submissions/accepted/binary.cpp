// Binary search over 1..n: at most 30 queries for n up to 10^9.
#include <iostream>
#include <string>

int main() {
    long long n;
    std::cin >> n;
    long long lo = 1, hi = n;
    while (true) {
        long long mid = (lo + hi) / 2;
        std::cout << "? " << mid << std::endl;
        std::string reply;
        if (!(std::cin >> reply) || reply == "=") return 0;
        if (reply == "<") hi = mid - 1; else lo = mid + 1;
    }
}
