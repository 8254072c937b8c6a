# frozen_string_literal: true

# The commands docs/ruby.md gives for tests in parallel, run from examples/parallel: two RSpec
# processes, and a Minitest class with parallelize_me!, each under one `wallet-sandbox exec`.
# test/isolation/parallel_runs_test.rb runs them; test/docs_test.rb finds them on the page.
module ParallelCommands
  EXAMPLE = File.expand_path("../../examples/parallel", __dir__)
  EXEC = %w[wallet-sandbox exec --clock manual --settle auto --].freeze
  RSPEC = ["sh", "-c", "rspec spec/settlement_spec.rb & rspec spec/snapshots_spec.rb && wait $!"].freeze
  MINITEST = %w[ruby test/payments_test.rb].freeze

  # As the page shows them.
  def self.shown = ["#{EXEC.join(' ')} sh -c '#{RSPEC.last}'", [*EXEC, *MINITEST].join(" ")]
end
