module example.com/shop

go 1.19

require github.com/wallet-sandbox/wallet-sandbox/clients/go v0.0.0

replace github.com/wallet-sandbox/wallet-sandbox/clients/go => ../..
