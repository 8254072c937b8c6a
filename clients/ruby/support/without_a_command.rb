# frozen_string_literal: true

require "open3"
require "tmpdir"

# Where no wallet-sandbox command is to be found, for the tests of what a run then says: no
# WALLET_SANDBOX_BIN, no sandbox to attach to, the system's PATH behind test/fixtures/registry-404
# (an npx that fails as npx then does), and a folder with no node_modules above it.
module WithoutACommand
  CLIENT = File.expand_path("..", __dir__)
  NPX = File.join(CLIENT, "test/fixtures/registry-404")

  module_function

  def env = ENV.to_h.merge("WALLET_SANDBOX_BIN" => nil, "WALLET_SANDBOX_BASE_URL" => nil, "PATH" => "#{NPX}:/usr/bin:/bin")

  # Runs `argv` there, in a folder of its own: its output (stdout and stderr) and its status.
  def run(*argv)
    Dir.mktmpdir("wallet-sandbox-no-command") { |dir| Open3.capture2e(env, *argv, chdir: dir) }
  end
end
