# The obviously right answer: every pair i < j with a[i] > a[j].
n = int(input())
a = list(map(int, input().split()))
print(sum(a[i] > a[j] for i in range(n) for j in range(i + 1, n)))
