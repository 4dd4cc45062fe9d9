"""An Othello program that never answers."""

import time

print("Sleeper", flush=True)
input()
input()
input()
time.sleep(3600)
