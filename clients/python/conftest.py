import pytest


@pytest.fixture(scope="session")
def wallet_sandbox_args() -> list[str]:
    # Time stands still until a test moves it: an account's payments settle as its clock passes their delays.
    return ["--clock", "manual"]
