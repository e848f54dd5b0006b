"""Test-wide settings: hypothesis profiles (CI caps example counts to stay fast)."""

import os

from hypothesis import HealthCheck, settings

settings.register_profile("ci", max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))
from tests.fakediscord.fixtures import *  # noqa: E402,F401,F403
