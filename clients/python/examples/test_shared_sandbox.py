"""
Tests that share one sandbox, as under `wallet-sandbox exec --clock manual -- python -m pytest -n 4`:
each moves its own account's clock and puts back its own account's state, so the tests beside it,
paying and settling on their own clocks at the same time, never notice.
"""

import pytest

RECIPIENT = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"


def pay(account):
    wallet = account.wallet("USDC", "polygon")
    return account.post("/payments", {"source_wallet": wallet["id"], "amount": "10.00", "currency": "USDC", "recipient": RECIPIENT})


@pytest.mark.parametrize("n", range(4))
def test_a_payment_settles_when_its_accounts_clock_passes_the_networks_delay(sandbox_account, n):
    payment = pay(sandbox_account)
    assert sandbox_account.get(f"/payments/{payment['id']}")["status"] == "pending"
    sandbox_account.advance_clock(seconds=5)
    assert sandbox_account.get(f"/payments/{payment['id']}")["status"] == "completed"


@pytest.mark.parametrize("n", range(4))
def test_a_payment_waits_for_the_test_to_fail_it(sandbox_account, n):
    payment = pay(sandbox_account)
    # Other tests move their clocks meanwhile; this account's stands still, so the payment is pending.
    failed = sandbox_account.fail_payment(payment["id"], failure_code="network_congestion")
    assert failed["status"] == "failed"


@pytest.mark.parametrize("n", range(4))
def test_a_restore_puts_back_its_account_alone(sandbox_account, n):
    snapshot = sandbox_account.snapshot()
    pay(sandbox_account)
    sandbox_account.restore(snapshot)
    assert sandbox_account.get("/payments") == []
    assert pay(sandbox_account)["status"] == "pending"
