// Odd centres, and two equal letters side by side: no even palindrome longer than 2.
#include <bits/stdc++.h>
using namespace std;
int main() {
    string s;
    cin >> s;
    int n = s.size(), best = 1;
    for (int c = 0; c < n; c++) {
        int l = c, r = c;
        while (l >= 0 && r < n && s[l] == s[r]) l--, r++;
        best = max(best, r - l - 1);
        if (c + 1 < n && s[c] == s[c + 1]) best = max(best, 2);
    }
    printf("%d\n", best);
}
