# frozen_string_literal: true

# Payments settle on their own account's clock. spec/snapshots_spec.rb runs beside this file, in
# another process on the same sandbox: neither moves the other's time nor touches its state.
RSpec.describe "Payments on their account's clock" do
  let(:wallet) { sandbox_account.wallet }

  def pay
    sandbox_account.post("/payments", source_wallet: wallet["id"], amount: "1.00", currency: "USDC",
                                      recipient: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed")
  end

  def status_of(payment) = sandbox_account.get("/payments/#{payment['id']}")["status"]

  it "settle when the account's clock moves on" do
    payments = Array.new(3) { pay }
    sandbox_account.advance_clock(seconds: 30)
    expect(payments.map { |payment| status_of(payment) }).to all(eq("completed"))
    expect(sandbox_account).to have_received_event("payment.succeeded").for(payments.last)
  end

  it "stay pending while other accounts' clocks move, until failed on purpose" do
    payments = Array.new(5) { pay }
    expect(sandbox_account).to have_received_event("payment.created").for(payments.last)
    payments.each do |payment|
      expect(wallet_sandbox.fail_payment(payment["id"], failure_code: "recipient_rejected")).to include("status" => "failed")
    end
  end

  it "settle as the account's clock reaches them, a second at a time" do
    payment = pay
    sandbox_account.advance_clock(seconds: 1) until sandbox_account.events(type: "payment.succeeded")["data"].any?
    expect(status_of(payment)).to eq("completed")
  end
end
