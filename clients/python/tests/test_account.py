"""sandbox_account: its wallets, the API with its key, and the control calls a test makes."""

from __future__ import annotations

import pytest

from support import RECIPIENT, pay
from wallet_sandbox import SandboxAccount, SandboxApiError


def test_has_its_seeded_wallets_at_hand(sandbox_account: SandboxAccount) -> None:
    assert len(sandbox_account.wallets) == 14
    assert sandbox_account.wallet("USDC", "polygon")["type"] == "user"
    assert sandbox_account.wallet("USDC", "polygon", type="institutional")["balance"] == "1000000.00"
    with pytest.raises(LookupError, match=r"^No USDC wallet on bitcoin in acct_\w+; it has ETH on ethereum \(institutional\), ETH on ethereum \(user\), "):
        sandbox_account.wallet("USDC", "bitcoin")


def test_deposits_and_moves_a_payment_through_processing_to_completed(sandbox_account: SandboxAccount) -> None:
    wallet = sandbox_account.wallet("USDC", "polygon")
    assert sandbox_account.deposit(wallet["id"], "25.00")["balance"] == "275.00"
    payment = pay(sandbox_account)
    assert sandbox_account.process_payment(payment["id"])["status"] == "processing"
    assert sandbox_account.complete_payment(payment["id"])["status"] == "completed"
    assert sandbox_account.get(f"/payments/{payment['id']}")["status"] == "completed"
    assert sandbox_account.wait_for_event("payment.succeeded", object_id=payment["id"])["data"]["object"]["status"] == "completed"
    assert [event["type"] for event in sandbox_account.events("payment.*")["data"]] == ["payment.created", "payment.processing", "payment.succeeded"]


def test_an_api_error_carries_the_status_the_code_and_the_sandboxs_message(sandbox_account: SandboxAccount) -> None:
    wallet = sandbox_account.wallet("USDC", "polygon")
    with pytest.raises(SandboxApiError) as refused:
        sandbox_account.post("/payments", {"source_wallet": wallet["id"], "amount": "900.00", "currency": "USDC", "recipient": RECIPIENT})
    assert (refused.value.status, refused.value.code) == (422, "insufficient_funds")
    assert str(refused.value).startswith(f"POST {sandbox_account.url}/payments answered 422 insufficient_funds: ")
