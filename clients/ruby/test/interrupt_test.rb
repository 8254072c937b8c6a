# frozen_string_literal: true

require "test_helper"
require "process_tree"

# An interrupted Minitest run leaves no sandbox behind: Ctrl-C (SIGINT) stops it on the way out,
# and after SIGKILL, which runs no Ruby at all, the supervisor stops it once the pipe closes.
class InterruptTest < Minitest::Test
  def run_and_kill(signal)
    tree = ProcessTree.new(RbConfig.ruby, "-Ilib", "-Itest", "-Isupport", "-rthis_checkout", "test/fixtures/holds_the_sandbox.rb")
    pid = Integer(tree.await(/sandbox pid (\d+)/))
    assert ProcessTree.alive?(pid), "the sandbox #{pid} runs while the test holds it"
    tree.kill(signal)
    [tree.wait_gone, pid, tree]
  end

  def test_an_interrupted_run_stops_its_sandbox_on_the_way_out
    _status, pid, tree = run_and_kill("INT")
    refute ProcessTree.alive?(pid), "sandbox #{pid} outlived the interrupted run:\n#{tree.output}"
    assert_includes tree.output, "Interrupted"
  end

  def test_a_killed_run_leaves_no_sandbox_behind
    status, pid, tree = run_and_kill("KILL")
    refute ProcessTree.alive?(pid), "sandbox #{pid} outlived the killed run:\n#{tree.output}"
    assert_equal Signal.list["KILL"], status.termsig
  end
end
