# SPDX-License-Identifier: MIT
"""One section of the evidence report: verdict, figures, tables, notes."""


class Section:
    def __init__(self, key, title, enforced):
        self.key = key
        self.title = title
        self.enforced = enforced   # a failure fails `make test`
        self.ok = True
        self.skipped = False
        self.figures = []          # (label, value)
        self.tables = []           # (caption, header, rows)
        self.notes = []
        self.errors = []

    def figure(self, label, value):
        self.figures.append((label, value))

    def table(self, caption, header, rows):
        self.tables.append((caption, header, rows))

    def note(self, text):
        self.notes.append(text)

    def error(self, text):
        self.errors.append(text)
        self.ok = False

    def verdict(self):
        if self.skipped:
            return "NOT RUN"
        return "PASS" if self.ok else "FAIL"

    def to_dict(self):
        return {"key": self.key, "title": self.title, "enforced": self.enforced,
                "verdict": self.verdict(), "figures": self.figures,
                "tables": [{"caption": c, "header": h, "rows": r} for c, h, r in self.tables],
                "notes": self.notes, "errors": self.errors}
