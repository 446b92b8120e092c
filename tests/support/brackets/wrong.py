# Wrong: counts the brackets only (the smallest string it gets wrong: `)(`).
n = int(input())
s = input().strip()
print("YES" if s.count("(") == s.count(")") else "NO")
