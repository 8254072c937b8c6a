"""An account's own clock and state: time that moves when the test says, state put back."""

from datetime import timedelta


def test_a_quote_expires_when_its_accounts_clock_passes_its_30_seconds(sandbox_account):
    quote = sandbox_account.post("/quotes", {"source_currency": "USDC", "destination_currency": "ETH", "source_amount": "100.00"})
    sandbox_account.advance_clock(seconds=31)  # this account's clock: every other account stands still
    assert sandbox_account.get(f"/quotes/{quote['id']}")["status"] == "expired"


def test_a_payment_settles_when_its_accounts_clock_passes_the_networks_delay(sandbox_account):
    wallet = sandbox_account.wallet("USDC", "polygon")
    payment = sandbox_account.post("/payments", {
        "source_wallet": wallet["id"],
        "amount": "10.00",
        "currency": "USDC",
        "recipient": "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
    })
    sandbox_account.advance_clock(timedelta(seconds=5))
    assert sandbox_account.get(f"/payments/{payment['id']}")["status"] == "completed"


def test_a_restore_forgets_what_came_after_the_snapshot(sandbox_account):
    wallet = sandbox_account.wallet("USDC", "polygon")
    snapshot = sandbox_account.snapshot()  # this account's state, its clock included
    sandbox_account.deposit(wallet["id"], "25.00")
    assert sandbox_account.get(f"/wallets/{wallet['id']}")["balance"] == "275.00"

    sandbox_account.restore(snapshot)

    assert sandbox_account.get(f"/wallets/{wallet['id']}")["balance"] == "250.00"
