"""An Othello program that fails on its first board."""

print("Crasher")
input()
input()
board = eval(input())
raise RuntimeError("my search blew up")
