# frozen_string_literal: true

require "open3"
require "securerandom"
require_relative "sandbox_process"

module WalletSandbox
  # The sandbox as a container: `<engine> run --rm --name wallet-sandbox-<random> -p 127.0.0.1::4400
  # IMAGE --ready-json [args]`, started and supervised as the command line is, its host port read with
  # `<engine> port`, and stopped with `<engine> stop`.
  module Container
    PORT = 4400

    module_function

    # The engine: `engine:`, else $WALLET_SANDBOX_CONTAINER_ENGINE, else docker.
    def engine(given = nil, env: ENV)
      given || (env["WALLET_SANDBOX_CONTAINER_ENGINE"].to_s.empty? ? "docker" : env["WALLET_SANDBOX_CONTAINER_ENGINE"])
    end

    # The started process and the base URL its port maps to on this host.
    def start(image:, args:, engine:, start_timeout:)
      name = "wallet-sandbox-#{SecureRandom.hex(6)}"
      command = [engine, "run", "--rm", "--name", name, "-p", "127.0.0.1::#{PORT}", image, "--ready-json", *args]
      process = SandboxProcess.start(command, start_timeout: start_timeout, engine: engine, container: name)
      [process, "http://127.0.0.1:#{host_port(process, engine, name)}"]
    end

    def host_port(process, engine, name)
      output, status = Open3.capture2e(engine, "port", name, "#{PORT}/tcp")
      port = output.lines.first.to_s[/:(\d+)\s*\z/, 1] if status.success?
      return Integer(port) if port

      process.stop
      raise StartError.new("wallet-sandbox started, but `#{engine} port #{name} #{PORT}/tcp` did not give its host port " \
                           "(exit code #{status.exitstatus}): #{output.strip}", command: process.command, exit_code: status.exitstatus)
    end
  end
end
