// The complement of each number among all of them, itself included.
#include <bits/stdc++.h>
using namespace std;
int main() {
    int n, s;
    scanf("%d %d", &n, &s);
    vector<int> a(n);
    for (int &x : a) scanf("%d", &x);
    set<int> seen(a.begin(), a.end());
    bool found = false;
    for (int x : a) found |= seen.count(s - x) > 0;
    puts(found ? "YES" : "NO");
}
