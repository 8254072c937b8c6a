# frozen_string_literal: true

require "json"
require "net/http"

RSpec.describe WalletSandbox::WebhookReceiver do
  let(:secret) { "whsec_#{['receiver test key bytes'].pack('m0')}" }
  let(:event) { { "id" => "evt_1", "object" => "event", "type" => "payment.failed", "data" => { "object" => { "id" => "pay_1" } } } }
  let(:receiver) { described_class.new(secret: secret) }

  after { receiver.close }

  # POSTs `body` to the receiver signed as the sandbox signs; `sign_with` and `timestamp` to get it wrong.
  def deliver(body = JSON.generate(event), sign_with: secret, timestamp: Time.now.to_i, headers: nil)
    uri = URI(receiver.url)
    signature = WalletSandbox::StandardWebhooks.sign(sign_with, id: "evt_1", timestamp: timestamp, body: body)
    headers ||= { "webhook-id" => "evt_1", "webhook-timestamp" => timestamp.to_s, "webhook-signature" => signature }
    Net::HTTP.post(uri, body, { "content-type" => "application/json" }.merge(headers))
  end

  it "answers 200 to a delivery signed with its secret, records it and hands its event to wait_for" do
    response = deliver
    expect([response.code, response.body]).to eq(%w[200 ok])
    expect(receiver.received.map(&:to_h)).to match([hash_including(event: event, verified: true, error: nil)])
    expect(receiver.wait_for("payment.failed", object_id: "pay_1")).to eq(event)
    expect(receiver.wait_for("payment.*")).to eq(event)
    expect(receiver.wait_for { |e| e["id"] == "evt_1" }).to eq(event)
  end

  it "accepts a delivery when one of several signatures matches" do
    body = JSON.generate(event)
    now = Time.now.to_i
    good = WalletSandbox::StandardWebhooks.sign(secret, id: "evt_1", timestamp: now, body: body)
    response = deliver(body, headers: { "webhook-id" => "evt_1", "webhook-timestamp" => now.to_s, "webhook-signature" => "v1,bm9wZQ== #{good}" })
    expect(response.code).to eq("200")
  end

  {
    "signed with another secret" => [{ sign_with: "whsec_#{['another key'].pack('m0')}" }, "no v1 signature matches the body under this secret"],
    "older than five minutes" => [{ timestamp: 1_000_000 }, /\Awebhook-timestamp 1000000 is more than 300 s from now \(\d+\)\z/],
    "without the signature headers" => [{ headers: {} }, "missing webhook-id, webhook-timestamp or webhook-signature"],
  }.each do |what, (how, reason)|
    it "answers 400 with the reason to a delivery #{what}, and records it as refused" do
      response = deliver(**how)
      expect(response.code).to eq("400")
      expect(response.body).to match(reason)
      expect(receiver.received.map { |d| [d.verified?, d.error] }).to match([[false, reason]])
    end
  end

  it "refuses everything while it has no secret" do
    receiver.secret = nil
    expect(deliver.body.force_encoding(Encoding::UTF_8)).to eq("the receiver has no secret to verify with (WebhookReceiver.new(secret:) or receiver.secret = …)")
  end

  it "waits for a delivery still to come" do
    waiting = Thread.new { receiver.wait_for("payment.failed", timeout: 10) }
    Thread.pass until waiting.status == "sleep"
    deliver
    expect(waiting.value).to eq(event)
  end

  it "says what it waited for and what arrived instead when the time is up" do
    expect { receiver.wait_for("payment.completed", object_id: "pay_9", timeout: 0) }
      .to raise_error(WalletSandbox::EventTimeout, "Waited 0 s for a payment.completed delivery of pay_9; nothing arrived.")
    deliver
    deliver(sign_with: "whsec_#{['another key'].pack('m0')}")
    expect { receiver.wait_for("payment.completed", timeout: 0) }
      .to raise_error(WalletSandbox::EventTimeout, "Waited 0 s for a payment.completed delivery; 2 arrived, the last: payment.failed pay_1, " \
                                                   "payment.failed pay_1 (refused: no v1 signature matches the body under this secret).")
  end

  it "refuses the sandbox's own delivery when it holds another secret than the endpoint's" do
    receiver.secret = "whsec_#{['not the endpoint secret'].pack('m0')}"
    sandbox_account.post("/webhooks", url: receiver.url, events: ["payment.failed"])
    payment = sandbox_account.post("/payments", source_wallet: sandbox_account.wallet["id"], amount: "1.00", currency: "USDC",
                                                recipient: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed")
    wallet_sandbox.fail_payment(payment["id"])
    refused = receiver.wait_for_delivery { |delivery| delivery.event&.dig("data", "object", "id") == payment["id"] }
    expect([refused.verified?, refused.error]).to eq([false, "no v1 signature matches the body under this secret"])
    expect(refused.headers).to include("webhook-id" => refused.event["id"])
    expect { receiver.wait_for("payment.failed", timeout: 0) }.to raise_error(WalletSandbox::EventTimeout, /1 arrived, the last: payment.failed #{payment['id']} \(refused/)
  end
end
