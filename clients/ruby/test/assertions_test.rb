# frozen_string_literal: true

require "test_helper"

# assert_received_event and refute_received_event, on the run's sandbox (manual clock and settlement).
class AssertionsTest < Minitest::Test
  include WalletSandbox::Minitest

  def pay
    sandbox_account.post("/payments", source_wallet: sandbox_account.wallet["id"], amount: "1.00", currency: "USDC",
                                      recipient: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed")
  end

  def test_assert_received_event_answers_the_event_already_there_or_still_to_come
    payment = pay
    assert_equal payment["id"], assert_received_event(sandbox_account, "payment.created", object_id: payment["id"])["data"]["object"]["id"]
    waiting = Thread.new { assert_received_event(sandbox_account, "payment.failed", object_id: payment["id"]) }
    Thread.pass until waiting.status == "sleep"
    wallet_sandbox.fail_payment(payment["id"])
    assert_equal "payment.failed", waiting.value["type"]
  end

  def test_assert_received_event_fails_with_what_the_account_had_instead
    payment = pay
    failure = assert_raises(Minitest::Assertion) { assert_received_event(sandbox_account, "payment.failed", timeout: 0) }
    assert_equal "No payment.failed event on the account of #{sandbox_account.api_key} within 0 s; its last events were: " \
                 "payment.created #{payment['id']} (#{sandbox_account.events['data'].first['id']}).", failure.message
  end

  def test_refute_received_event_passes_while_there_is_none_and_does_not_wait
    payment = pay
    refute_received_event(sandbox_account, "payment.failed", object_id: payment["id"])
    wallet_sandbox.fail_payment(payment["id"])
    failure = assert_raises(Minitest::Assertion) { refute_received_event(sandbox_account, "payment.failed", object_id: payment["id"]) }
    assert_match(/\AExpected no payment.failed of #{payment['id']} on #<WalletSandbox::Account #{sandbox_account.account_id} .*>, but it has payment.failed evt_\w+\.\z/, failure.message)
  end

  def test_the_assertions_count
    before = assertions
    refute_received_event(wallet_sandbox, "payout.*")
    assert_equal before + 1, assertions
  end
end
