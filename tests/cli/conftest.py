import pytest


@pytest.fixture(autouse=True)
def english_terminal(monkeypatch):
    """The CLI's default language comes from the locale: the tests expect English unless they ask."""
    monkeypatch.setenv("LC_ALL", "C.UTF-8")
