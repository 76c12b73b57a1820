"""The README's example runs and prints what the README says."""
import contextlib
import io
import os
import unittest

README = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "README.md")


def fenced_block(text, lang):
    start = text.index("```" + lang + "\n") + len(lang) + 4
    return text[start:text.index("```", start)]


class Readme(unittest.TestCase):
    def test_readme_example_runs(self):
        with open(README) as f:
            readme = f.read()
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(fenced_block(readme, "python"), "README.md", "exec"), {})
        self.assertEqual(out.getvalue(), fenced_block(readme, "text"))


if __name__ == "__main__":
    unittest.main()
