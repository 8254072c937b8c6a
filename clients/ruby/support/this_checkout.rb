# frozen_string_literal: true

# This repository's suites run the sandbox of this checkout (built into dist/ by `npm run build`),
# where an application would find node_modules/.bin/wallet-sandbox.
ENV["WALLET_SANDBOX_BIN"] ||= File.expand_path("../../../bin/wallet-sandbox.js", __dir__)
