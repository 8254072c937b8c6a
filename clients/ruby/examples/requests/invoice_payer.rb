# frozen_string_literal: true

require "json"
require "net/http"

# The application's code under test: pays an invoice from a wallet, and when the connection is lost
# before the answer comes, sends the payment once more with the same Idempotency-Key (the API then
# answers with the payment it made, instead of paying twice). Its bug: `amount.to_s` sends 10 as
# "10", where the API wants "10.00".
class InvoicePayer
  def initialize(api_url:, api_key:, wallet_id:)
    @uri = URI("#{api_url}/payments")
    @api_key = api_key
    @wallet_id = wallet_id
  end

  def pay(invoice, amount)
    request = Net::HTTP::Post.new(@uri, "Authorization" => "Bearer #{@api_key}", "Content-Type" => "application/json",
                                        "Idempotency-Key" => invoice)
    request.body = JSON.generate(amount: amount.to_s, currency: "USDC", source_wallet: @wallet_id,
                                 recipient: "0x52908400098527886E0F7030069857D2E4169EE7")
    attempts = 0
    begin
      attempts += 1
      response = Net::HTTP.start(@uri.host, @uri.port) { |http| http.request(request) }
    rescue EOFError, Errno::ECONNRESET
      retry if attempts < 2
      raise
    end
    JSON.parse(response.body).fetch("data")
  end
end
