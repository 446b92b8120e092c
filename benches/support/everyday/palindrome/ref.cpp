// The longest palindromic substring's length: every centre, odd and even.
#include <bits/stdc++.h>
using namespace std;
int main() {
    string s;
    cin >> s;
    int n = s.size(), best = 0;
    for (int c = 0; c < 2 * n - 1; c++) {
        int l = c / 2, r = (c + 1) / 2;
        while (l >= 0 && r < n && s[l] == s[r]) l--, r++;
        best = max(best, r - l - 1);
    }
    printf("%d\n", best);
}
