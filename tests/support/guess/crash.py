# Asks once, then fails on the reply.
n = int(input())
print("?", n, flush=True)
reply = input().strip()
if reply != "=":
    raise RuntimeError(f"cannot handle the reply {reply!r}")
