"""A stand-in for pygame in a student's folder (written for arena's example class): like
the real one, importing it prints a banner to stdout."""

print("pygame 2.5.2 (SDL 2.28.3, Python 3.11.6)")
print("Hello from the pygame community. https://www.pygame.org/contribute.html")
