# frozen_string_literal: true

require_relative "lib/wallet_sandbox/version"

Gem::Specification.new do |spec|
  spec.name = "wallet_sandbox"
  spec.version = WalletSandbox::VERSION
  spec.summary = "Runs wallet-sandbox, the local wallet and payments API emulator, for RSpec and Minitest suites."
  spec.description = "Starts the wallet-sandbox command line (or its container image) on a free port, or attaches to " \
                     "WALLET_SANDBOX_BASE_URL; drives its control API, awaits events and verifies webhooks. " \
                     "Standard library only."
  spec.license = "MIT"
  spec.authors = ["wallet-sandbox contributors"]
  spec.required_ruby_version = ">= 3.1"
  spec.files = Dir["lib/**/*.rb"]
  spec.require_paths = ["lib"]
  spec.metadata["rubygems_mfa_required"] = "true"
end
