"""Test-wide settings: hypothesis profiles (CI caps example counts to stay fast), and a check
that `-n` keeps each xdist_group on one worker."""

import os

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("ci", max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))
from tests.fakediscord.fixtures import *  # noqa: E402,F401,F403


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """In an xdist worker with `--dist loadgroup`, xdist tags each grouped test's id with its group
    (`...@postgresql`) so the tests that wipe the one PostgreSQL database run on one worker. A
    pytest that keeps ids elsewhere (9.x) silently loses the tags, and those tests then wipe each
    other's tables: refuse to run instead."""
    if not getattr(config.option, "loadgroup", False):  # set in xdist workers only
        return
    untagged = [i.nodeid for i in items if i.get_closest_marker("xdist_group") and "@" not in i.nodeid]
    if untagged:
        raise pytest.UsageError(f"xdist did not tag {untagged[0]} with its group: check the pytest pin")
