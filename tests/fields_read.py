"""A section of a scenario that notes which of its fields are read: for the tests that prove a
step reads none of the fields its cache key leaves out."""


class FieldsRead:
    def __init__(self, section) -> None:
        self._section, self.read = section, set()

    def __getattr__(self, name: str):
        self.read.add(name)
        return getattr(self._section, name)
