"""Async tests (pytest-asyncio): the waits have awaitable forms, so the event loop goes on meanwhile."""

import pytest

pytest.importorskip("pytest_asyncio")


@pytest.mark.asyncio
async def test_a_failed_payment_is_awaited_without_blocking_the_loop(sandbox_account, webhook_receiver):
    endpoint = sandbox_account.post("/webhooks", {"url": webhook_receiver.url, "events": ["payment.failed"]})
    webhook_receiver.secret = endpoint["secret"]
    wallet = sandbox_account.wallet("USDC", "polygon")
    payment = sandbox_account.post("/payments", {
        "source_wallet": wallet["id"],
        "amount": "10.00",
        "currency": "USDC",
        "recipient": "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
    })

    sandbox_account.fail_payment(payment["id"], failure_code="network_congestion")

    event = await sandbox_account.wait_for_event_async("payment.failed", object_id=payment["id"])
    assert await webhook_receiver.wait_for_async("payment.failed", object_id=payment["id"]) == event
