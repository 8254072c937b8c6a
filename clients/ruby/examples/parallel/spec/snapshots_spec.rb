# frozen_string_literal: true

# An account's snapshot and restore put that account back, and no other. spec/settlement_spec.rb
# runs beside this file, in another process on the same sandbox, its payments settling meanwhile.
RSpec.describe "An account's snapshot" do
  it "restores the account's wallets and payments as they were" do
    wallet = sandbox_account.wallet
    snapshot = sandbox_account.snapshot
    payment = sandbox_account.post("/payments", source_wallet: wallet["id"], amount: "1.00", currency: "USDC",
                                                recipient: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed")
    sandbox_account.advance_clock(seconds: 30)

    sandbox_account.restore(snapshot)
    expect(sandbox_account.wallet["balance"]).to eq(wallet["balance"])
    expect { sandbox_account.get("/payments/#{payment['id']}") }.to raise_error(WalletSandbox::APIError, /404 resource_missing/)
  end

  it "takes the account's clock back to when it was taken" do
    sandbox_account.advance_clock(minutes: 1)
    snapshot = sandbox_account.snapshot
    sandbox_account.advance_clock(hours: 1)
    sandbox_account.restore(snapshot)
    expect(sandbox_account.clock["now"]).to eq(snapshot["taken_at"])
  end

  it "is taken of one account only" do
    snapshot = sandbox_account.snapshot
    expect(snapshot["account_id"]).to eq(sandbox_account.account_id)
    expect(snapshot["accounts"].map { |account| account["account"]["id"] }).to eq([sandbox_account.account_id])
  end
end
