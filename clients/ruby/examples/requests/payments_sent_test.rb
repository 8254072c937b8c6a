# frozen_string_literal: true

require "minitest/autorun"
require "wallet_sandbox/minitest"
require_relative "invoice_payer"

# Assert what the application sent, not only what it got back.
class PaymentsSentTest < Minitest::Test
  include WalletSandbox::Minitest

  def payer
    InvoicePayer.new(api_url: wallet_sandbox.url, api_key: sandbox_account.api_key, wallet_id: sandbox_account.wallet["id"])
  end

  def test_reuses_its_idempotency_key_when_it_retries_a_payment_whose_answer_was_lost
    # The sandbox makes this account's next payment, then drops the connection before answering.
    wallet_sandbox.control(:post, "/faults", { api_key: sandbox_account.api_key, match: { path: "/v1/payments" },
                                               fault: "commit_then_drop", times: 1 })
    payer.pay("invoice-41", 10)

    retried, first = assert_request_sent(sandbox_account, method: "POST", path: "/v1/payments",
                                                          headers: { "idempotency-key" => "invoice-41" }, count: 2, exactly: true)
    assert_equal "commit_then_drop", first["fault"]
    assert retried["replayed"]
  end

  def test_fails_on_purpose_the_amount_went_out_as_10
    payer.pay("invoice-42", 10)

    assert_request_sent sandbox_account, method: "POST", path: "/v1/payments", body: { amount: "10.00" }
  end
end
