"""
What your code sent, not only what came back (run as test_payments_sent.py): a retry that reused its
Idempotency-Key, and a test that fails on purpose, since the code sends "10" where "10.00" is meant.
"""

import json
import urllib.request


def pay_invoice(base_url, api_key, wallet_id, invoice, amount):
    """The code under test: pays an invoice, once more with the same Idempotency-Key when the answer is lost. Its bug: str(10) is "10"."""
    request = urllib.request.Request(
        f"{base_url}/payments",
        method="POST",
        data=json.dumps({
            "source_wallet": wallet_id,
            "amount": str(amount),
            "currency": "USDC",
            "recipient": "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
        }).encode(),
        headers={"Authorization": f"Bearer {api_key}", "Content-Type": "application/json", "Idempotency-Key": invoice},
    )

    def send():
        with urllib.request.urlopen(request) as response:
            return json.load(response)["data"]

    try:
        return send()
    except ConnectionError:  # the connection dropped before the answer: the same request again
        return send()


def test_a_payment_retried_after_a_lost_answer_reuses_its_idempotency_key(sandbox_account):
    # The sandbox makes this account's next payment, then drops the connection before answering.
    sandbox_account.sandbox.control("POST", "/faults", {
        "match": {"path": "/v1/payments"}, "fault": "commit_then_drop", "times": 1, "api_key": sandbox_account.api_key,
    })
    wallet = sandbox_account.wallet("USDC", "polygon")
    pay_invoice(sandbox_account.url, sandbox_account.api_key, wallet["id"], "invoice-41", 10)

    retry, first = sandbox_account.expect_request(
        method="POST", path="/v1/payments", headers={"idempotency-key": "invoice-41"}, count=2, exactly=True,
    )
    assert first["fault"] == "commit_then_drop"
    assert retry["replayed"]  # the sandbox answered the retry with the payment the first one made


def test_fails_on_purpose_the_amount_went_out_as_10(sandbox_account):
    wallet = sandbox_account.wallet("USDC", "polygon")
    pay_invoice(sandbox_account.url, sandbox_account.api_key, wallet["id"], "invoice-42", 10)

    sandbox_account.expect_request(method="POST", path="/v1/payments", headers={"idempotency-key": "invoice-42"}, body={"amount": "10.00"})
