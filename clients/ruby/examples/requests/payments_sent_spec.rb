# frozen_string_literal: true

require "wallet_sandbox/rspec"
require_relative "invoice_payer"

# Assert what the application sent, not only what it got back.
RSpec.describe InvoicePayer do
  subject(:payer) do
    InvoicePayer.new(api_url: wallet_sandbox.url, api_key: sandbox_account.api_key, wallet_id: sandbox_account.wallet["id"])
  end

  it "reuses its Idempotency-Key when it retries a payment whose answer was lost" do
    # The sandbox makes this account's next payment, then drops the connection before answering.
    wallet_sandbox.control(:post, "/faults", { api_key: sandbox_account.api_key, match: { path: "/v1/payments" },
                                               fault: "commit_then_drop", times: 1 })
    payer.pay("invoice-41", 10)

    expect(sandbox_account).to have_received_request(method: "POST", path: "/v1/payments",
                                                     headers: { "idempotency-key" => "invoice-41" }).twice
    retried, first = sandbox_account.expect_request(method: "POST", path: "/v1/payments", count: 2)
    expect(first["fault"]).to eq("commit_then_drop")
    expect(retried["replayed"]).to be(true)
  end

  it "fails on purpose: the amount went out as \"10\"" do
    payer.pay("invoice-42", 10)

    expect(sandbox_account).to have_received_request(method: "POST", path: "/v1/payments", body: { amount: "10.00" })
  end
end
