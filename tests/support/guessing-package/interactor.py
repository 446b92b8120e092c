# The interactor of "guess the number", in testlib's protocol: `interactor.py input output`.
# The input file holds n and the secret x. The program reads n, then asks "? y" and reads "<"
# (x is smaller), ">" (x is larger) or "=" (found: the game ends), in at most 30 queries.
# Exit 0 accepted, 1 wrong answer, 2 presentation error, 3 the interactor's own failure; the
# message goes to stderr.
import sys


def verdict(code, message):
    print(message, file=sys.stderr)
    sys.exit(code)


try:
    with open(sys.argv[1]) as case:
        n, x = map(int, case.read().split())
except ValueError:
    verdict(3, "the input is not two integers n and x")
if not 1 <= x <= n:
    verdict(3, f"the input's secret {x} is not between 1 and n = {n}")
print(n, flush=True)
for queries in range(1, 31):
    line = sys.stdin.readline()
    if not line:
        verdict(2, f"the program stopped after {queries - 1} queries without finding {x}")
    parts = line.split()
    if len(parts) != 2 or parts[0] != "?" or not parts[1].lstrip("-").isdigit():
        verdict(2, f"query {queries}: expected '? y', found {line.strip()!r}")
    y = int(parts[1])
    if not 1 <= y <= n:
        verdict(1, f"query {queries}: {y} is not between 1 and {n}")
    if y == x:
        print("=", flush=True)
        verdict(0, f"found {x} in {queries} queries")
    print("<" if x < y else ">", flush=True)
verdict(1, f"more than 30 queries without finding {x}")
