// Every pair i < j.
#include <bits/stdc++.h>
using namespace std;
int main() {
    int n, s;
    scanf("%d %d", &n, &s);
    vector<int> a(n);
    for (int &x : a) scanf("%d", &x);
    bool found = false;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) found |= a[i] + a[j] == s;
    puts(found ? "YES" : "NO");
}
