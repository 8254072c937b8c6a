# frozen_string_literal: true

require "time"

# The scenario every helper runs in its own language (docs/development.md lists them side by side):
# pay, force a failure, await payment.failed through the events route and through a verified
# webhook, advance an account's clock, snapshot and restore it, and parallel work on isolated accounts.
RSpec.describe "The shared scenario, in Ruby with RSpec" do
  # A polygon address, where the account's first USDC wallet pays.
  def pay(account, amount = "10.00")
    account.post("/payments", source_wallet: account.wallet["id"], amount: amount, currency: "USDC",
                              recipient: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed")
  end

  it "pays, fails the payment on purpose, and sees payment.failed through the events route and a verified webhook" do
    WalletSandbox::WebhookReceiver.open do |receiver|
      endpoint = sandbox_account.post("/webhooks", url: receiver.url, events: ["payment.failed"])
      receiver.secret = endpoint["secret"]

      payment = pay(sandbox_account)
      wallet_sandbox.fail_payment(payment["id"], failure_code: "insufficient_network_fee")

      event = sandbox_account.wait_for_event("payment.failed", object_id: payment["id"])
      expect(event.dig("data", "object")).to include("id" => payment["id"], "status" => "failed",
                                                     "failure_code" => "insufficient_network_fee")
      expect(receiver.wait_for("payment.failed", object_id: payment["id"])).to eq(event)
    end
  end

  it "advances its account's clock, and snapshots and restores its account, while another account goes on" do
    account = sandbox_account
    other = wallet_sandbox.new_account
    before = account.clock["now"]
    after = account.advance_clock(minutes: 1)["now"]
    expect(Time.iso8601(after) - Time.iso8601(before)).to eq(60)
    expect(other.clock["now"]).to eq(before)

    snapshot = account.snapshot
    payment = pay(account)
    theirs = pay(other)
    account.restore(snapshot)
    expect { account.get("/payments/#{payment['id']}") }
      .to raise_error(WalletSandbox::APIError) { |error| expect([error.status, error.code]).to eq([404, "resource_missing"]) }
    expect(other.get("/payments/#{theirs['id']}")).to include("id" => theirs["id"])
  end

  it "runs in parallel on isolated accounts: each sees only its own events" do
    runs = (1..4).map do |n|
      Thread.new do
        account = wallet_sandbox.new_account
        payment = pay(account, "#{n}.00")
        wallet_sandbox.fail_payment(payment["id"])
        { payment: payment, event: account.wait_for_event("payment.failed"), all: account.events["data"] }
      end
    end.map(&:value)

    runs.each do |run|
      expect(run[:event].dig("data", "object", "id")).to eq(run[:payment]["id"])
      expect(run[:all].map { |event| event.dig("data", "object", "id") }).to eq([run[:payment]["id"]] * 2)
    end
  end
end
