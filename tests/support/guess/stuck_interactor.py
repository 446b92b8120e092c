# An interactor that answers one game right, then never ends: after the program is done, it
# sleeps instead of exiting.
import sys
import time

with open(sys.argv[1]) as case:
    n, x = map(int, case.read().split())
print(n, flush=True)
while True:
    y = int(sys.stdin.readline().split()[1])
    if y == x:
        print("=", flush=True)
        break
    print("<" if x < y else ">", flush=True)
time.sleep(600)
