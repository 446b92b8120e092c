# An output validator in the Kattis protocol for "derangement":
#   kattis_validator.py input answer feedback_dir/ < output
# exit 42 accepted, 43 rejected, the reason in feedback_dir/judgemessage.txt.
import os
import sys

input_file, answer_file, feedback_dir = sys.argv[1:4]


def reject(message):
    with open(os.path.join(feedback_dir, "judgemessage.txt"), "w") as f:
        f.write(message + "\n")
    sys.exit(43)


n = int(open(input_file).read())
tokens = sys.stdin.read().split()
if len(tokens) != n or not all(t.isdigit() for t in tokens):
    reject(f"expected {n} numbers, found {len(tokens)} tokens")
p = [int(t) for t in tokens]
if sorted(p) != list(range(1, n + 1)):
    reject("not a permutation of 1..%d" % n)
for i, v in enumerate(p, start=1):
    if v == i:
        reject(f"position {i} holds {i}: a fixed point")
sys.exit(42)
