"""The sandbox clock and snapshots: time that moves when the test says, state put back."""


def test_a_quote_expires_when_the_clock_passes_its_30_seconds(sandbox_account):
    quote = sandbox_account.post("/quotes", {"source_currency": "USDC", "destination_currency": "ETH", "source_amount": "100.00"})
    sandbox_account.advance_clock(31_000)
    assert sandbox_account.get(f"/quotes/{quote['id']}")["status"] == "expired"


def test_a_restore_forgets_what_came_after_the_snapshot(sandbox_account):
    wallet = sandbox_account.wallet("USDC", "polygon")
    snapshot = sandbox_account.snapshot()  # the whole sandbox, every account in it
    sandbox_account.deposit(wallet["id"], "25.00")
    assert sandbox_account.get(f"/wallets/{wallet['id']}")["balance"] == "275.00"

    sandbox_account.restore(snapshot)

    assert sandbox_account.get(f"/wallets/{wallet['id']}")["balance"] == "250.00"
