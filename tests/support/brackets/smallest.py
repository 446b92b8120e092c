# The smallest case the wrong solution fails, whatever the seed: nothing smaller fails.
import sys

seed = int(sys.argv[-1])
print(2)
print(")(")
