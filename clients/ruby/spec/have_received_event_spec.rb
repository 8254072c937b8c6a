# frozen_string_literal: true

# The matcher have_received_event, on the run's sandbox (manual clock and settlement).
RSpec.describe "have_received_event" do
  let(:payment) do
    sandbox_account.post("/payments", source_wallet: sandbox_account.wallet["id"], amount: "1.00", currency: "USDC",
                                      recipient: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed")
  end

  it "passes once the account has the event, already or still to come" do
    expect(sandbox_account).to have_received_event("payment.created").for(payment)
    waiting = Thread.new { expect(sandbox_account).to have_received_event("payment.failed").for(payment["id"]) }
    Thread.pass until waiting.status == "sleep"
    wallet_sandbox.fail_payment(payment["id"])
    waiting.join
    expect(sandbox_account).to have_received_event(%w[payment.succeeded payment.failed])
    expect(sandbox_account).to have_received_event("payment.*").within(ms: 100)
  end

  it "fails with what the account had instead when none comes in time" do
    payment
    expect { expect(sandbox_account).to have_received_event("payment.failed").for(payment).within(seconds: 0) }
      .to raise_error(RSpec::Expectations::ExpectationNotMetError) { |error|
        expect(error.message).to start_with("expected #{sandbox_account.inspect} to have received a payment.failed event for #{payment['id']}\n" \
                                            "No payment.failed event of #{payment['id']} on the account of #{sandbox_account.api_key} within 0 s; " \
                                            "its last events were: payment.created #{payment['id']}")
      }
  end

  it "is negated without waiting: no such event yet" do
    expect(sandbox_account).not_to have_received_event("payment.failed").for(payment)
    wallet_sandbox.fail_payment(payment["id"])
    expect { expect(sandbox_account).not_to have_received_event("payment.failed") }
      .to raise_error(RSpec::Expectations::ExpectationNotMetError, /\Aexpected #<WalletSandbox::Account .*> not to have received a payment.failed event, but it has payment.failed evt_/)
  end

  it "reads the sandbox's own key on a sandbox, and describes itself" do
    expect(wallet_sandbox).not_to have_received_event("payout.*")
    expect(have_received_event("payment.failed").for("pay_1").description).to eq("have received a payment.failed event for pay_1")
    expect(have_received_event.description).to eq("have received an event")
  end

  it "takes how long to wait with its unit" do
    expect { have_received_event.within(5) }.to raise_error(ArgumentError, /\Awithin takes a unit: within\(ms: 5\) or within\(seconds: 5\)/)
  end
end
