import pytest


@pytest.fixture(autouse=True)
def english_terminal(monkeypatch):
    """The CLI's default language comes from the locale: the tests expect English unless they ask."""
    monkeypatch.setenv("LC_ALL", "C.UTF-8")
    monkeypatch.setenv("COLUMNS", "80")  # lines are cut at the terminal's width: the same one wherever tests run
