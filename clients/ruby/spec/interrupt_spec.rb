# frozen_string_literal: true

require "process_tree"

# An interrupted RSpec run leaves no sandbox behind. Ctrl-C twice makes RSpec quit with exit!, and
# SIGKILL ends it at once: neither runs after(:suite) or at_exit, so the supervisor, seeing the
# pipe from the run close, stops the sandbox.
RSpec.describe "An interrupted RSpec run" do
  def start_run
    tree = ProcessTree.new("rspec", "spec/fixtures/holds_the_sandbox.rb")
    pid = Integer(tree.await(/sandbox pid (\d+)/))
    expect(ProcessTree.alive?(pid)).to be(true)
    [tree, pid]
  end

  it "leaves no sandbox behind after Ctrl-C twice" do
    tree, pid = start_run
    tree.kill("INT")
    tree.await(/(RSpec is shutting down)/)
    tree.kill("INT")
    expect(tree.wait_gone.exitstatus).to eq(1)
    expect(ProcessTree.alive?(pid)).to be(false), "sandbox #{pid} outlived the run:\n#{tree.output}"
  end

  it "leaves no sandbox behind after SIGKILL" do
    tree, pid = start_run
    tree.kill("KILL")
    expect(tree.wait_gone.termsig).to eq(Signal.list["KILL"])
    expect(ProcessTree.alive?(pid)).to be(false), "sandbox #{pid} outlived the run:\n#{tree.output}"
  end
end
