# frozen_string_literal: true

require_relative "wallet_sandbox/version"
require_relative "wallet_sandbox/errors"
require_relative "wallet_sandbox/cli_command"
require_relative "wallet_sandbox/container"
require_relative "wallet_sandbox/sandbox"
require_relative "wallet_sandbox/sandbox_process"
require_relative "wallet_sandbox/standard_webhooks"
require_relative "wallet_sandbox/webhook_receiver"

# Runs wallet-sandbox, the local emulator of the wallet and payments API, for a Ruby test suite.
module WalletSandbox
  DEFAULT_API_KEY = "sk_test_sandbox_default_key"

  class << self
    # A sandbox for this process: attached to $WALLET_SANDBOX_BASE_URL when that is set (as under
    # `wallet-sandbox exec`); else the command line on a free port (`bin:`, see CLICommand), or the
    # container `image:`, with the extra `args:`. Raises StartError when it does not start within
    # `start_timeout` seconds, VersionMismatch when it is not a 0.1.x sandbox.
    def start(bin: nil, image: nil, args: [], start_timeout: 30, engine: nil, env: ENV)
      base_url = env["WALLET_SANDBOX_BASE_URL"]
      return attach(base_url, env: env) unless base_url.nil? || base_url.empty?

      args = args.map(&:to_s)
      if image
        process, base_url = Container.start(image: image, args: args, engine: Container.engine(engine, env: env), start_timeout: start_timeout)
      else
        words = CLICommand.find(bin: bin, env: env)
        process = SandboxProcess.start([*words, "--ready-json", "--port", "0", *args], start_timeout: start_timeout,
                                                                                      hint: CLICommand.hint_for(words))
        base_url = process.ready.fetch("base_url")
      end
      started(process, base_url)
    end

    # The sandbox that answers at `url` (its base URL or its …/v1 URL), started by someone else and
    # shared with other tests: its sandbox-wide advance, snapshot, restore or reset warns once
    # (SharedSandboxWarning); an Account's own stay quiet.
    def attach(url, api_key: nil, control_token: nil, env: ENV)
      base_url = url.to_s.sub(%r{/+\z}, "").sub(%r{/v1\z}, "")
      version = answered_version(base_url)
      check_version!(version, "The sandbox at #{base_url}")
      Sandbox.new(base_url: base_url, version: version,
                  api_key: api_key || env["WALLET_SANDBOX_API_KEY"] || DEFAULT_API_KEY,
                  control_token: control_token || env["WALLET_SANDBOX_CONTROL_TOKEN"])
    end

    private

    def started(process, base_url)
      ready = process.ready
      begin
        check_version!(ready["version"], "The sandbox that `#{process.description}` started")
      rescue VersionMismatch
        process.stop
        raise
      end
      Sandbox.new(base_url: base_url, api_key: ready.fetch("api_key"), control_token: ready["control_token"],
                  version: ready["version"], process: process)
    end

    def answered_version(base_url)
      response = HTTP.new(base_url).get_raw("/_sandbox/health")
      response["Wallet-Sandbox-Version"] or
        raise Error, "#{base_url} answered GET /_sandbox/health with #{response.code} and no Wallet-Sandbox-Version header: is it a wallet-sandbox?"
    rescue SystemCallError, IOError, Timeout::Error => e
      raise Error, "Nothing answers at #{base_url} (#{e.message}): is a sandbox running there?"
    end
  end
end
