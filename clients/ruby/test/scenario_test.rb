# frozen_string_literal: true

require "test_helper"
require "time"

# The scenario every helper runs in its own language (docs/development.md lists them side by side):
# pay, force a failure, await payment.failed through the events route and through a verified
# webhook, advance an account's clock, snapshot and restore it, and parallel work on isolated accounts.
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

  def test_advances_its_accounts_clock_and_snapshots_and_restores_its_account_while_another_account_goes_on
    account = sandbox_account
    other = wallet_sandbox.new_account
    before = account.clock["now"]
    after = account.advance_clock(minutes: 1)["now"]
    assert_equal 60, Time.iso8601(after) - Time.iso8601(before)
    assert_equal before, other.clock["now"]

    snapshot = account.snapshot
    payment = pay(account)
    theirs = pay(other)
    account.restore(snapshot)
    error = assert_raises(WalletSandbox::APIError) { account.get("/payments/#{payment['id']}") }
    assert_equal [404, "resource_missing"], [error.status, error.code]
    assert_equal theirs["id"], other.get("/payments/#{theirs['id']}")["id"]
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
