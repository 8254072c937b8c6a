# frozen_string_literal: true

# The control methods, on the run's sandbox (manual clock and settlement), each example on an
# account of its own.
RSpec.describe "The control methods" do
  def pay(amount = "1.00")
    sandbox_account.post("/payments", source_wallet: sandbox_account.wallet["id"], amount: amount, currency: "USDC",
                                      recipient: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed")
  end

  it "read the sandbox's health and version" do
    expect(wallet_sandbox.health).to include("status" => "ok", "version" => "0.1.0")
    expect(wallet_sandbox.version).to eq("0.1.0")
  end

  it "make keys on accounts of their own" do
    created = wallet_sandbox.create_key
    expect(created["key"]).to start_with("sk_test_")
    expect(created["account_id"]).not_to eq(sandbox_account.account_id)
  end

  it "deposit into a wallet" do
    wallet = sandbox_account.wallet
    after = wallet_sandbox.deposit(wallet["id"], "25.00")
    expect(after["balance"].to_f).to eq(wallet["balance"].to_f + 25)
  end

  it "complete and process payments, each step an event" do
    completed = pay
    expect(wallet_sandbox.complete_payment(completed["id"])["status"]).to eq("completed")
    processing = pay
    expect(wallet_sandbox.process_payment(processing["id"])["status"]).to eq("processing")
    types = sandbox_account.events(type: ["payment.processing", "payment.succeeded"], object_id: completed["id"])["data"].map { |e| e["type"] }
    expect(types).to eq(%w[payment.processing payment.succeeded])
  end

  it "page through events after a given one" do
    payment = pay
    first, = sandbox_account.events(limit: 1)["data"]
    wallet_sandbox.fail_payment(payment["id"])
    expect(sandbox_account.events(after: first["id"])["data"].map { |e| e["type"] }).to eq(["payment.failed"])
  end

  it "reset one account to its fixtures" do
    payment = pay
    expect(wallet_sandbox.reset(api_key: sandbox_account.api_key)).to include("reset" => "account", "account_id" => sandbox_account.account_id)
    expect { sandbox_account.get("/payments/#{payment['id']}") }.to raise_error(WalletSandbox::APIError, /404 resource_missing/)
  end

  it "raise APIError with the API's code, message and request id" do
    expect { wallet_sandbox.fail_payment("pay_nope") }.to raise_error(WalletSandbox::APIError) { |error|
      expect(error.message).to eq("POST /_sandbox/payments/pay_nope/fail answered 404 resource_missing: No such payment: 'pay_nope'.")
      expect([error.status, error.code, error.type]).to eq([404, "resource_missing", "invalid_request_error"])
      expect(error.request_id).to start_with("req_")
    }
  end

  it "wait for an event, and say what the account had instead when none comes" do
    payment = pay
    created = sandbox_account.wait_for_event("payment.created", object_id: payment["id"])
    expect(created.dig("data", "object", "id")).to eq(payment["id"])
    expect { sandbox_account.wait_for_event("payment.failed", object_id: payment["id"], timeout: 0) }
      .to raise_error(WalletSandbox::EventTimeout, "No payment.failed event of #{payment['id']} on the account of #{sandbox_account.api_key} " \
                                                   "within 0 s; its last events were: payment.created #{payment['id']} (#{created['id']}).")
  end

  it "wait for the sandbox's own key unless told another" do
    expect { wallet_sandbox.wait_for_event("payout.*", timeout: 0) }
      .to raise_error(WalletSandbox::EventTimeout, /\ANo payout\.\* event on the account of sk_test_sandbox_default_key within 0 s/)
  end

  it "list webhook deliveries" do
    endpoint = sandbox_account.post("/webhooks", url: "http://127.0.0.1:9/webhooks", events: ["payment.failed"])
    payment = pay
    wallet_sandbox.fail_payment(payment["id"])
    event = sandbox_account.wait_for_event("payment.failed")
    expect(wallet_sandbox.deliveries(event_id: event["id"])).to match([hash_including("endpoint_id" => endpoint["id"], "event_type" => "payment.failed")])
  end

  it "reach any other control route" do
    expect(wallet_sandbox.control(:get, "/magic")).to include(hash_including("applies_to" => "payments", "outcome" => "failed"))
  end
end
