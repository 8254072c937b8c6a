# frozen_string_literal: true

require "pathname"

module WalletSandbox
  # Where the wallet-sandbox command line is, as the words to run it with. In order: the `bin:` given,
  # then $WALLET_SANDBOX_BIN, then node_modules/.bin/wallet-sandbox in the current folder or one above
  # it, then wallet-sandbox on the PATH, and last `npx --no-install wallet-sandbox`. A `.js` file runs
  # with node.
  module CLICommand
    ENV_NAME = "WALLET_SANDBOX_BIN"
    NPX = %w[npx --no-install wallet-sandbox].freeze
    # What a start of the npx fallback that fails says: npx then asks the npm registry, whose 404 names no fix.
    NOT_FOUND = "no wallet-sandbox command was found, neither bin: nor #{ENV_NAME} nor node_modules/.bin/wallet-sandbox " \
                "in the working folder or above it nor one on the PATH, so this ran npx, which cannot fetch it; pass " \
                "bin: to WalletSandbox.start, config.wallet_sandbox_options or WalletSandbox::Minitest.options, or set " \
                "#{ENV_NAME}, to the command: node_modules/.bin/wallet-sandbox, or bin/wallet-sandbox.js in a checkout"

    module_function

    def find(bin: nil, env: ENV, dir: Dir.pwd)
      given = bin || env[ENV_NAME]
      return words_for(given.to_s) unless given.nil? || given.to_s.empty?

      found = local_bin(dir) || on_path("wallet-sandbox", env["PATH"])
      found ? [found] : NPX.dup
    end

    # What to say when `words` do not start a sandbox: why they were tried, when they are the fallback.
    def hint_for(words) = words == NPX ? NOT_FOUND : nil

    def words_for(path)
      path.end_with?(".js") ? ["node", path] : [path]
    end

    # The package's own bin link, as `npm install --save-dev wallet-sandbox` makes it.
    def local_bin(dir)
      Pathname(dir).expand_path.ascend do |folder|
        candidate = folder.join("node_modules", ".bin", "wallet-sandbox")
        return candidate.to_s if candidate.file? && candidate.executable?
      end
      nil
    end

    def on_path(name, path)
      path.to_s.split(File::PATH_SEPARATOR).each do |folder|
        candidate = File.join(folder, name)
        return candidate if File.file?(candidate) && File.executable?(candidate)
      end
      nil
    end
  end
end
