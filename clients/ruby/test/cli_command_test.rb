# frozen_string_literal: true

require "test_helper"
require "fileutils"
require "tmpdir"

# How the command line is found: bin:, $WALLET_SANDBOX_BIN, node_modules/.bin upward, the PATH, npx.
class CLICommandTest < Minitest::Test
  def setup
    @dir = Dir.mktmpdir("wallet-sandbox-ruby")
    @nested = File.join(@dir, "app", "spec")
    FileUtils.mkdir_p(@nested)
  end

  def teardown
    FileUtils.rm_rf(@dir)
  end

  def executable(path)
    FileUtils.mkdir_p(File.dirname(path))
    File.write(path, "#!/bin/sh\n")
    File.chmod(0o755, path)
    path
  end

  def find(bin: nil, env: {}) = WalletSandbox::CLICommand.find(bin: bin, env: { "PATH" => "" }.merge(env), dir: @nested)

  def test_bin_comes_first_and_a_js_file_runs_with_node
    assert_equal ["node", "/opt/ws/bin/wallet-sandbox.js"], find(bin: "/opt/ws/bin/wallet-sandbox.js", env: { "WALLET_SANDBOX_BIN" => "/elsewhere" })
    assert_equal ["/opt/ws/wallet-sandbox"], find(bin: "/opt/ws/wallet-sandbox")
  end

  def test_then_WALLET_SANDBOX_BIN
    executable(File.join(@dir, "node_modules", ".bin", "wallet-sandbox"))
    assert_equal ["node", "/opt/ws/cli.js"], find(env: { "WALLET_SANDBOX_BIN" => "/opt/ws/cli.js" })
  end

  def test_then_node_modules_bin_in_this_folder_or_one_above_it
    local = executable(File.join(@dir, "node_modules", ".bin", "wallet-sandbox"))
    executable(File.join(@dir, "on-path", "wallet-sandbox"))
    assert_equal [local], find(env: { "PATH" => File.join(@dir, "on-path") })
  end

  def test_then_the_path
    on_path = executable(File.join(@dir, "on-path", "wallet-sandbox"))
    assert_equal [on_path], find(env: { "PATH" => ["/nowhere", File.join(@dir, "on-path")].join(File::PATH_SEPARATOR) })
  end

  def test_and_last_npx_without_installing
    File.write(File.join(@dir, "wallet-sandbox"), "not executable")
    assert_equal %w[npx --no-install wallet-sandbox], find(env: { "PATH" => @dir })
  end
end
