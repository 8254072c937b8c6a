# frozen_string_literal: true

require "test_helper"
require "time"

# The scenario every helper runs in its own language (docs/development.md lists them side by side):
# pay, force a failure, await payment.failed through the events route and through a verified
# webhook, advance the clock, snapshot and restore, and parallel work on isolated accounts.
class ScenarioTest < Minitest::Test
  include WalletSandbox::Minitest

  # A polygon address, where the account's first USDC wallet pays.
  def pay(account, amount = "10.00")
    account.post("/payments", source_wallet: account.wallet["id"], amount: amount, currency: "USDC",
                              recipient: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed")
  end

  def test_pays_fails_the_payment_and_sees_payment_failed_through_the_events_route_and_a_verified_webhook
    WalletSandbox::WebhookReceiver.open do |receiver|
      endpoint = sandbox_account.post("/webhooks", url: receiver.url, events: ["payment.failed"])
      receiver.secret = endpoint["secret"]

      payment = pay(sandbox_account)
      wallet_sandbox.fail_payment(payment["id"], failure_code: "insufficient_network_fee")

      event = sandbox_account.wait_for_event("payment.failed", object_id: payment["id"])
      assert_equal [payment["id"], "failed", "insufficient_network_fee"],
                   event["data"]["object"].values_at("id", "status", "failure_code")
      assert_equal event, receiver.wait_for("payment.failed", object_id: payment["id"])
    end
  end

  def test_advances_the_clock_and_snapshots_and_restores_the_state
    account = sandbox_account
    before = Time.iso8601(wallet_sandbox.clock["now"])
    after = Time.iso8601(wallet_sandbox.advance_clock(60_000)["now"])
    assert_equal 60, after - before

    snapshot = wallet_sandbox.snapshot
    payment = pay(account)
    wallet_sandbox.restore(snapshot)
    error = assert_raises(WalletSandbox::APIError) { account.get("/payments/#{payment['id']}") }
    assert_equal [404, "resource_missing"], [error.status, error.code]
  end

  def test_runs_in_parallel_on_isolated_accounts_each_seeing_only_its_own_events
    runs = (1..4).map do |n|
      Thread.new do
        account = wallet_sandbox.new_account
        payment = pay(account, "#{n}.00")
        wallet_sandbox.fail_payment(payment["id"])
        { payment: payment, event: account.wait_for_event("payment.failed"), all: account.events["data"] }
      end
    end.map(&:value)

    runs.each do |run|
      assert_equal run[:payment]["id"], run[:event]["data"]["object"]["id"]
      assert_equal [run[:payment]["id"]] * 2, run[:all].map { |event| event["data"]["object"]["id"] }
    end
  end
end
