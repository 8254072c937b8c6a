"""Webhooks as your handler gets them: signed, verified, awaited without sleeping."""


def test_a_failed_payment_is_announced_by_a_signed_webhook(sandbox_account, webhook_receiver):
    endpoint = sandbox_account.post("/webhooks", {"url": webhook_receiver.url, "events": ["payment.failed"]})
    webhook_receiver.secret = endpoint["secret"]  # whsec_…: the receiver checks every signature with it

    wallet = sandbox_account.wallet("USDC", "polygon")
    payment = sandbox_account.post("/payments", {
        "source_wallet": wallet["id"],
        "amount": "10.00",
        "currency": "USDC",
        "recipient": "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
    })
    sandbox_account.fail_payment(payment["id"], failure_code="insufficient_network_fee")

    event = webhook_receiver.wait_for("payment.failed", object_id=payment["id"])
    assert event["data"]["object"]["failure_code"] == "insufficient_network_fee"
    # The events route has the same event, also for an account without webhook endpoints.
    assert sandbox_account.wait_for_event("payment.failed", object_id=payment["id"]) == event
