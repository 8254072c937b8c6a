# frozen_string_literal: true

require "time"

# An account's own clock, snapshot, restore and reset (CONTRACT.md section 24), beside another
# account on the run's sandbox (manual clock and settlement).
RSpec.describe WalletSandbox::Account do
  let(:account) { sandbox_account }
  let(:other) { wallet_sandbox.new_account }

  def pay(from)
    from.post("/payments", source_wallet: from.wallet["id"], amount: "1.00", currency: "USDC",
                           recipient: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed")
  end

  def seconds_between(earlier, later) = Time.iso8601(later) - Time.iso8601(earlier)

  it "moves its own clock alone, by the units it is given" do
    start = wallet_sandbox.clock["now"]
    expect(other.clock).to include("now" => start, "offset_ms" => 0, "account_id" => other.account_id)

    expect(account.advance_clock(seconds: 30)).to include("offset_ms" => 30_000, "account_id" => account.account_id)
    expect(account.advance_clock(ms: 1500)["offset_ms"]).to eq(31_500)
    moved = account.advance_clock(hours: 1, minutes: 2)
    expect(seconds_between(start, moved["now"])).to eq(3600 + 120 + 31.5)
    expect(account.clock).to eq(moved)
    expect([other.clock["now"], wallet_sandbox.clock["now"]]).to eq([start, start])
  end

  it "refuses a number without a unit, and nothing at all" do
    expect { account.advance_clock(5000) }
      .to raise_error(ArgumentError, "advance_clock takes a unit: advance_clock(ms: 5000) or advance_clock(seconds: 5000), not a bare 5000")
    expect { account.advance_clock }.to raise_error(ArgumentError, /\Aadvance_clock takes how long: advance_clock\(seconds: 30\)/)
    expect(account.clock["offset_ms"]).to eq(0)
  end

  it "moves with the sandbox clock, keeping its offset, when the whole sandbox advances" do
    account.advance_clock(seconds: 10)
    before = [account.clock["now"], other.clock["now"]]
    wallet_sandbox.advance_clock(seconds: 5)
    after = [account.clock["now"], other.clock["now"]]
    expect(before.zip(after).map { |earlier, later| seconds_between(earlier, later) }).to eq([5, 5])
    expect(account.clock["offset_ms"]).to eq(10_000)
  end

  it "takes a snapshot of its own state and restores it, clock and all, leaving the other account as it is" do
    account.advance_clock(minutes: 1)
    snapshot = account.snapshot
    expect(snapshot).to include("account_id" => account.account_id, "taken_at" => account.clock["now"])

    mine = pay(account)
    theirs = pay(other)
    account.advance_clock(hours: 1)
    expect(account.restore(snapshot)).to include("restored" => true, "account_id" => account.account_id)

    expect(account.clock["now"]).to eq(snapshot["taken_at"])
    expect { account.get("/payments/#{mine['id']}") }.to raise_error(WalletSandbox::APIError, /404 resource_missing/)
    expect(other.get("/payments/#{theirs['id']}")).to include("id" => theirs["id"], "status" => "pending")
  end

  it "restores only a snapshot of its own" do
    expect { account.restore(other.snapshot) }
      .to raise_error(ArgumentError, "restore of account #{account.account_id} takes a snapshot of that account " \
                                     "(its #snapshot); this one is account #{other.account_id}'s")
    expect { account.restore(wallet_sandbox.snapshot) }.to raise_error(ArgumentError, /this one is not an account's \(a whole sandbox's/)
  end

  it "resets itself to its fixtures and back on the sandbox clock, its key still valid" do
    payment = pay(account)
    account.advance_clock(seconds: 30)
    expect(account.reset).to include("reset" => "account", "account_id" => account.account_id)
    expect(account.clock["offset_ms"]).to eq(0)
    expect { account.get("/payments/#{payment['id']}") }.to raise_error(WalletSandbox::APIError, /404 resource_missing/)
    expect(account.wallet["balance"]).to eq(other.wallet["balance"])
  end

  it "says which account it is, and not the whole sandbox, when inspected" do
    expect(account.inspect).to eq("#<WalletSandbox::Account #{account.account_id} #{account.api_key} on #{wallet_sandbox.base_url}>")
  end
end
