"""A sandbox of its own, for sandbox-wide calls or settings other than the suite's, even under exec."""

from datetime import timedelta

import pytest

pytestmark = pytest.mark.wallet_sandbox(settle="manual")  # this module's tests; or mark one test or class


def test_a_payment_stays_pending_until_a_control_call_moves_it(wallet_sandbox, sandbox_account):
    wallet = sandbox_account.wallet("USDC", "polygon")
    payment = sandbox_account.post("/payments", {
        "source_wallet": wallet["id"],
        "amount": "10.00",
        "currency": "USDC",
        "recipient": "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
    })
    wallet_sandbox.advance_clock(timedelta(hours=1))  # sandbox-wide: no other test uses this sandbox
    assert sandbox_account.get(f"/payments/{payment['id']}")["status"] == "pending"

    sandbox_account.complete_payment(payment["id"])
    assert sandbox_account.get(f"/payments/{payment['id']}")["status"] == "completed"
