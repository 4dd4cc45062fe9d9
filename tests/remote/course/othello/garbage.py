"""An Othello program that answers something that is not a move."""

print("Babbler")
input()
while True:
    input()
    input()
    print("I think e4 is nice", flush=True)
