# frozen_string_literal: true

module WalletSandbox
  # The gem's version, which is the sandbox version it is written for.
  VERSION = "0.1.0"

  # The sandbox versions this gem accepts: the same major.minor as its own (0.1.x).
  SERIES = VERSION.split(".").first(2).join(".")

  # Raises VersionMismatch, naming both versions, unless `version` is of SERIES; `where` says whose it is.
  def self.check_version!(version, where)
    return if version.to_s.split(".").first(2).join(".") == SERIES

    raise VersionMismatch,
          "#{where} is wallet-sandbox #{version.inspect}, but this wallet_sandbox gem #{VERSION} is written " \
          "for #{SERIES}.x: use a gem and a sandbox of the same major.minor version."
  end
end
