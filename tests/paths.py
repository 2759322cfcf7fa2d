"""Where the tests find the repository and their fixtures, from any folder under tests/."""

from pathlib import Path

TESTS_DIR = Path(__file__).resolve().parent
ROOT = TESTS_DIR.parent
FIXTURES_DIR = TESTS_DIR / "fixtures"
