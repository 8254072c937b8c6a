import pytest


@pytest.fixture(scope="session")
def wallet_sandbox_args() -> list[str]:
    # The clock and the payments stand still until a test moves them.
    return ["--clock", "manual", "--settle", "manual"]
