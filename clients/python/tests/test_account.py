"""sandbox_account: its wallets, the API with its key, the control calls a test makes, and its own time and state."""

from __future__ import annotations

import pytest

from support import RECIPIENT, pay
from wallet_sandbox import Sandbox, SandboxAccount, SandboxApiError


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


def test_an_api_error_carries_the_status_the_code_the_request_id_and_the_sandboxs_message(sandbox_account: SandboxAccount) -> None:
    wallet = sandbox_account.wallet("USDC", "polygon")
    with pytest.raises(SandboxApiError) as refused:
        sandbox_account.post("/payments", {"source_wallet": wallet["id"], "amount": "900.00", "currency": "USDC", "recipient": RECIPIENT})
    assert (refused.value.status, refused.value.code) == (422, "insufficient_funds")
    assert refused.value.request_id == refused.value.body["request_id"]
    assert str(refused.value).startswith(f"POST {sandbox_account.url}/payments answered 422 insufficient_funds: ")
    assert str(refused.value).endswith(f". ({refused.value.request_id})")
    assert refused.value.request_id.startswith("req_")


def test_its_clock_moves_alone_and_settles_its_own_payments(wallet_sandbox: Sandbox) -> None:
    ahead, behind = wallet_sandbox.create_account(), wallet_sandbox.create_account()
    payments = pay(ahead), pay(behind)

    clock = ahead.advance_clock(seconds=5)

    assert (clock["account_id"], clock["offset_ms"]) == (ahead.account_id, 5000)
    assert ahead.get(f"/payments/{payments[0]['id']}")["status"] == "completed"
    assert behind.get(f"/payments/{payments[1]['id']}")["status"] == "pending"
    assert behind.clock()["offset_ms"] == 0
    assert behind.clock()["now"] == wallet_sandbox.clock()["now"]


def test_a_restore_puts_back_its_account_alone(wallet_sandbox: Sandbox) -> None:
    restored, other = wallet_sandbox.create_account(), wallet_sandbox.create_account()
    snapshot = restored.snapshot()
    assert snapshot["account_id"] == restored.account_id
    for account in (restored, other):
        account.deposit(account.wallet("USDC", "polygon")["id"], "25.00")

    assert restored.restore(snapshot)["account_id"] == restored.account_id

    assert restored.get(f"/wallets/{restored.wallet('USDC', 'polygon')['id']}")["balance"] == "250.00"
    assert other.get(f"/wallets/{other.wallet('USDC', 'polygon')['id']}")["balance"] == "275.00"


def test_a_restore_takes_only_a_snapshot_of_its_own_account(wallet_sandbox: Sandbox) -> None:
    account, other = wallet_sandbox.create_account(), wallet_sandbox.create_account()
    with pytest.raises(ValueError, match=rf"^restore\(\) of account {account.account_id} takes a snapshot of that account \(its snapshot\(\)\); this one is account {other.account_id}'s\.$"):
        account.restore(other.snapshot())
    with pytest.raises(ValueError, match=r"this one is a whole sandbox's \(wallet_sandbox\.restore\(\) takes it\)\.$"):
        account.restore({"version": 1, "accounts": []})


def test_a_reset_seeds_its_account_anew_on_the_sandbox_clock(sandbox_account: SandboxAccount) -> None:
    before = sandbox_account.wallet("USDC", "polygon")
    sandbox_account.deposit(before["id"], "25.00")
    sandbox_account.advance_clock(seconds=10)

    assert sandbox_account.reset() == {"reset": "account", "account_id": sandbox_account.account_id}

    after = sandbox_account.wallet("USDC", "polygon")  # Read anew: the seeded wallets have new ids.
    assert after["id"] != before["id"]
    assert sandbox_account.get(f"/wallets/{after['id']}")["balance"] == "250.00"
    assert sandbox_account.clock()["offset_ms"] == 0
