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

  # The supervisor's watchdog, a process of its own in the sandbox's group, still holds the pipe: the
  # sandbox runs on while the run lives, and is stopped when the run is gone (Python's supervisor,
  # killed alone, left its sandbox running for good).
  def test_a_killed_supervisor_and_then_a_killed_run_leave_no_sandbox_behind
    tree = ProcessTree.new(RbConfig.ruby, "-Ilib", "-Itest", "-Isupport", "-rthis_checkout", "test/fixtures/holds_the_sandbox.rb")
    pid = Integer(tree.await(/sandbox pid (\d+)/))
    supervisor = Integer(File.read("/proc/#{pid}/stat")[/\) \S (\d+)/, 1])
    assert_equal "sh", File.read("/proc/#{supervisor}/comm").chomp
    Process.kill("KILL", supervisor)
    assert ProcessTree.alive?(pid), "the sandbox #{pid} runs on while the run that holds it lives"
    tree.kill("KILL")
    tree.wait_gone
    refute ProcessTree.alive?(pid), "sandbox #{pid} outlived its supervisor and the run:\n#{tree.output}"
  end
end
