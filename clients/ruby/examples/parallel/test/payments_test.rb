# frozen_string_literal: true

require "minitest/autorun"
require "wallet_sandbox/minitest"

# Payments that settle once their account's clock moves on. Under `wallet-sandbox exec` the run
# attaches to the sandbox exec started (with the same flags) and these go unused.
WalletSandbox::Minitest.options = { args: %w[--clock manual --settle auto] }

# The tests run in threads at once (MT_CPU of them, else one per core), each on an account of its
# own: while one moves its clock on and its payments settle, another keeps its own pending, and a
# third takes its account back to a snapshot.
class PaymentsTest < Minitest::Test
  include WalletSandbox::Minitest
  parallelize_me!

  def wallet = @wallet ||= sandbox_account.wallet

  def pay
    sandbox_account.post("/payments", source_wallet: wallet["id"], amount: "1.00", currency: "USDC",
                                      recipient: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed")
  end

  def status_of(payment) = sandbox_account.get("/payments/#{payment['id']}")["status"]

  def test_payments_settle_when_the_accounts_clock_moves_on
    payments = Array.new(3) { pay }
    sandbox_account.advance_clock(seconds: 30)
    assert_equal %w[completed] * 3, payments.map { |payment| status_of(payment) }
    assert_received_event sandbox_account, "payment.succeeded", object_id: payments.last["id"]
  end

  def test_payments_stay_pending_while_other_accounts_clocks_move
    payments = Array.new(5) { pay }
    assert_received_event sandbox_account, "payment.created", object_id: payments.last["id"]
    payments.each do |payment|
      assert_equal "failed", wallet_sandbox.fail_payment(payment["id"], failure_code: "recipient_rejected")["status"]
    end
  end

  def test_a_snapshot_restores_the_account_as_it_was
    snapshot = sandbox_account.snapshot
    payment = pay
    sandbox_account.advance_clock(seconds: 30)
    sandbox_account.restore(snapshot)
    assert_equal wallet["balance"], sandbox_account.wallet["balance"]
    assert_raises(WalletSandbox::APIError) { sandbox_account.get("/payments/#{payment['id']}") }
  end

  def test_a_snapshot_takes_the_accounts_clock_back
    sandbox_account.advance_clock(minutes: 1)
    snapshot = sandbox_account.snapshot
    sandbox_account.advance_clock(hours: 1)
    sandbox_account.restore(snapshot)
    assert_equal snapshot["taken_at"], sandbox_account.clock["now"]
  end
end
