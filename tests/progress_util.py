"""A progress stand-in for tests of what an arena reports while it plays."""


class Updates:
    """Records each ``update(n)`` an arena makes, in order."""

    def __init__(self):
        self.calls = []

    def update(self, n):
        self.calls.append(int(n))
