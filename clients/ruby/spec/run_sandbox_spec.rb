# frozen_string_literal: true

require "without_a_command"

# The run's sandbox as the RSpec integration holds it: started by the first example that needs it, so
# that unit specs run without Node; a start that fails says why once and is not tried again.
RSpec.describe "The run's sandbox" do
  def rspec(fixture)
    WithoutACommand.run("rspec", "-I", "#{WithoutACommand::CLIENT}/lib", "#{WithoutACommand::CLIENT}/spec/fixtures/#{fixture}")
  end

  it "is not started by a run of unit specs alone, which then passes where no sandbox could start" do
    output, status = rspec("needs_no_sandbox.rb")
    expect(output).to include("1 example, 0 failures")
    expect(status).to be_success
  end

  it "says once which option and variable to set when no command is to be found" do
    output, status = rspec("three_examples_need_the_sandbox.rb")
    expect(output).to include("3 examples, 3 failures")
    expect(status.exitstatus).to eq(1)
    expect(output.scan("or set WALLET_SANDBOX_BIN, to the command").size).to eq(1)
    expect(output.scan("it is not tried again").size).to eq(2)
  end
end
