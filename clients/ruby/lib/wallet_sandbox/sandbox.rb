# frozen_string_literal: true

require_relative "account"
require_relative "control"
require_relative "http"

module WalletSandbox
  # A sandbox in use, started by this process or attached to: where it answers, its default key,
  # and the control API (Control). #stop stops a sandbox this process started, and no other.
  class Sandbox
    include Control

    # `base_url` is http://127.0.0.1:PORT, `url` the API's (…/v1), `stream_url` the WebSocket stream's.
    attr_reader :base_url, :url, :stream_url, :api_key, :control_token, :version, :http

    def initialize(base_url:, api_key:, control_token:, version:, process: nil)
      @base_url = base_url
      @url = "#{base_url}/v1"
      @stream_url = "#{base_url.sub(/\Ahttp/, 'ws')}/v1/stream"
      @api_key = api_key
      @control_token = control_token
      @version = version
      @process = process
      @http = HTTP.new(base_url)
    end

    # Whether this process attached to a sandbox someone else started (and so never stops it).
    def attached? = @process.nil?

    # The sandbox's process id (nil when attached; inside the container for an image).
    def pid = @process&.pid

    # The sandbox's last lines of output (empty when attached).
    def log_tail = @process ? @process.tail.lines : []

    def stop
      @process&.stop
      nil
    end

    # A fresh account: a new key on a freshly seeded account (`create_key` options apply).
    def new_account(**key_options)
      created = create_key(**key_options)
      Account.new(self, api_key: created.fetch("key"), account_id: created.fetch("account_id"))
    end

    def inspect = "#<#{self.class.name} #{@base_url}#{attached? ? ' (attached)' : " pid=#{pid}"}>"
  end
end
