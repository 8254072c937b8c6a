# frozen_string_literal: true

module WalletSandbox
  # An account of its own on a sandbox: a key on a freshly seeded account that no other test uses,
  # with its wallets, events and webhooks. Requests go to /v1 with that key.
  class Account
    attr_reader :sandbox, :api_key, :account_id

    def initialize(sandbox, api_key:, account_id:)
      @sandbox = sandbox
      @api_key = api_key
      @account_id = account_id
    end

    # `get("/wallets", currency: "USDC")`: the reply's `data`; raises APIError on an error.
    def get(path, **query) = request(:get, path, query: query)
    def post(path, body = {}) = request(:post, path, body: body)
    def delete(path) = request(:delete, path)

    def request(method, path, body: nil, query: nil)
      @sandbox.http.request(method, "/v1#{path}", body: body, query: query, bearer: @api_key)&.fetch("data", nil)
    end

    # The account's first seeded wallet of that currency and network.
    def wallet(currency: "USDC", network: "polygon")
      get("/wallets", currency: currency, network: network).first or
        raise Error, "account #{@account_id} has no #{currency} wallet on #{network}"
    end

    def events(**filter) = @sandbox.events(api_key: @api_key, **filter)

    def wait_for_event(type = nil, **options) = @sandbox.wait_for_event(type, api_key: @api_key, **options)
  end
end
