# frozen_string_literal: true

require "time"

# The scenario every helper runs in its own language (docs/development.md lists them side by side):
# pay, force a failure, await payment.failed through the events route and through a verified
# webhook, advance the clock, snapshot and restore, and parallel work on isolated accounts.
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

  it "advances the clock, and snapshots and restores the state" do
    account = sandbox_account
    before = Time.iso8601(wallet_sandbox.clock["now"])
    after = Time.iso8601(wallet_sandbox.advance_clock(60_000)["now"])
    expect(after - before).to eq(60)

    snapshot = wallet_sandbox.snapshot
    payment = pay(account)
    wallet_sandbox.restore(snapshot)
    expect { account.get("/payments/#{payment['id']}") }
      .to raise_error(WalletSandbox::APIError) { |error| expect([error.status, error.code]).to eq([404, "resource_missing"]) }
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
